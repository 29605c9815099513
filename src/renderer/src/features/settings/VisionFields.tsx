import { useTranslation } from 'react-i18next';
import { IMAGE_DETAILS, ImageDetailSchema } from '../../../../shared/settings/vision-settings.js';
import type { SectionProps } from './settings-types.js';

/** Which provider describes images for models that cannot see, and how closely models that see look at them. */
export function VisionFields({ settings, save }: Pick<SectionProps, 'settings' | 'save'>) {
  const { t } = useTranslation();
  const names = Object.keys(settings.llms);
  return (
    <>
      <div className="field-row">
        <label className="field">
          <span>{t('settings.providers.visionModel')}</span>
          <select
            value={settings.visionLlm ?? ''}
            onChange={(event) => void save({ ...settings, visionLlm: event.target.value || undefined })}
            data-testid="vision-llm"
          >
            <option value="">{t('settings.vision.none')}</option>
            {names.map((name) => (
              <option key={name} value={name}>
                {name} · {settings.llms[name]!.model}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('settings.vision.detail')}</span>
          <select
            value={settings.imageDetail}
            onChange={(event) => void save({ ...settings, imageDetail: ImageDetailSchema.parse(event.target.value) })}
            data-testid="image-detail"
          >
            {IMAGE_DETAILS.map((detail) => (
              <option key={detail} value={detail}>
                {t(`settings.vision.details.${detail}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="field-help">{t('settings.vision.help')}</p>
    </>
  );
}
