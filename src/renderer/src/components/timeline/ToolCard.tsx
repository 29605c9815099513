import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToolItem } from '../../state/session-view.js';
import { toolSummary } from '../../lib/tool-args.js';
import { formatDuration, imageSource } from '../../lib/format.js';
import { ToolDetails } from '../../tool-views/ToolDetails.js';
import { recogniseProblem } from '../../lib/problems.js';
import { ProblemBanner } from '../ProblemBanner.js';

/** short labels rather than emoji: they render the same on every system font */
const KIND_LABELS = {
  python: 'PY',
  bash: 'SH',
  file: 'ED',
  browser: 'WEB',
  search: 'FIND',
  mcp: 'MCP',
  plan: 'PLAN',
  generic: 'TOOL',
} as const;

export const ToolCard = memo(function ToolCard({
  item,
  open,
  onToggle,
}: {
  item: ToolItem;
  open: boolean;
  onToggle: (key: string) => void;
}) {
  const { t } = useTranslation();
  const kind = item.toolKind;
  const firstImage = item.images[0];
  return (
    <article className={`tool-card tool-${item.status} ${open ? 'open' : ''}`} data-tool={item.name} data-kind={kind}>
      <button type="button" className="tool-card-head" aria-expanded={open} onClick={() => onToggle(item.key)}>
        <span className={`tool-icon kind-${kind}`} aria-hidden>
          {KIND_LABELS[kind]}
        </span>
        <span className="tool-name">{item.name}</span>
        <span className="tool-summary">{toolSummary(kind, item.args)}</span>
        {!open && firstImage ? <img className="tool-thumb" src={imageSource(firstImage)} alt="" /> : null}
        <span className={`tool-status status-${item.status}`}>
          {item.status === 'calling' ? <span className="spinner" aria-hidden /> : null}
          {t(`tool.${item.status}`)}
        </span>
        <span className="tool-duration">{formatDuration(item.durationMs)}</span>
        <span className="chevron" aria-hidden>
          {open ? '▾' : '▸'}
        </span>
      </button>
      {item.error && recogniseProblem('', item.error) === 'docker_missing' ? (
        // a setup problem (Docker down, no key) is shown with its fix even while the card is closed
        <div className="tool-card-problem">
          <ProblemBanner code="tool_error" message={item.error} />
        </div>
      ) : null}
      {open ? (
        <div className="tool-card-body">
          <ToolDetails item={item} />
        </div>
      ) : null}
    </article>
  );
});
