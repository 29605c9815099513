import { useTranslation } from 'react-i18next';
import type { UsageTotals } from '../../../shared/events.js';
import { formatCost, formatCount } from '../lib/format.js';

/** The session's tokens and, when the model's price is known, its estimated cost; the details on hover. */
export function UsageBadge({ usage }: { usage: UsageTotals | undefined }) {
  const { t } = useTranslation();
  if (!usage || usage.totalTokens === 0) return null;
  const details = [
    t('budget.tokensDetail', { prompt: usage.promptTokens, completion: usage.completionTokens }),
    usage.cost === undefined ? t('budget.noPrice') : t('budget.costDetail', { cost: `$${usage.cost.toFixed(4)}` }),
  ];
  return (
    <span className="usage" data-testid="session-usage" title={details.join('\n')}>
      {t('session.tokens', { tokens: formatCount(usage.totalTokens), count: usage.totalTokens })}
      {usage.cost === undefined ? null : ` · ${t('budget.cost', { cost: formatCost(usage.cost) })}`}
    </span>
  );
}
