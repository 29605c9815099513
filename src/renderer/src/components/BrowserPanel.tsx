import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Screenshot } from '../state/session-view.js';
import { imageSource } from '../lib/format.js';
import { EnlargeableImage } from './ImageLightbox.js';
import './panels.css';

/** The latest browser screenshot, live; the scrubber goes back through the earlier ones. */
export function BrowserPanel({ screenshots }: { screenshots: Screenshot[] }) {
  const { t } = useTranslation();
  // undefined follows the latest shot as new ones arrive
  const [picked, setPicked] = useState<number | undefined>(undefined);
  if (screenshots.length === 0) return <p className="panel-empty">{t('browserPanel.none')}</p>;
  const index = picked === undefined ? screenshots.length - 1 : Math.min(picked, screenshots.length - 1);
  const shot = screenshots[index];
  return (
    <div className="browser-panel" data-testid="browser-panel">
      <div className="browser-chrome">
        <span className="browser-url-bar" title={shot.url}>
          {shot.url ?? ''}
        </span>
        {shot.action ? <span className="badge">{shot.action}</span> : null}
      </div>
      <EnlargeableImage src={imageSource(shot.image)} alt={shot.url ?? t('tool.screenshot')}>
        <img className="browser-shot" src={imageSource(shot.image)} alt={shot.url ?? t('tool.screenshot')} />
      </EnlargeableImage>
      <div className="scrubber">
        <input
          type="range"
          min={0}
          max={screenshots.length - 1}
          value={index}
          aria-label={t('browserPanel.shot', { index: index + 1, total: screenshots.length })}
          onChange={(event) => {
            const value = Number(event.target.value);
            setPicked(value === screenshots.length - 1 ? undefined : value);
          }}
        />
        <span className="scrubber-label">
          {t('browserPanel.shot', { index: index + 1, total: screenshots.length })}
          {picked !== undefined ? (
            <button type="button" className="ghost" onClick={() => setPicked(undefined)}>
              {t('browserPanel.latest')}
            </button>
          ) : null}
        </span>
      </div>
    </div>
  );
}
