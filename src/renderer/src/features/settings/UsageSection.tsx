import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { knownPricing } from '../../../../shared/model-prices.js';
import type { LlmEntry, SectionProps } from './settings-types.js';

/** A price field as typed: empty, or a number of dollars. */
interface PriceDraft {
  prompt: string;
  completion: string;
}

const typed = (value: number | undefined): string => (value === undefined ? '' : String(value));

function priceDrafts(llms: Record<string, LlmEntry>): Record<string, PriceDraft> {
  return Object.fromEntries(
    Object.entries(llms).map(([name, llm]) => [
      name,
      { prompt: typed(llm.pricing?.prompt), completion: typed(llm.pricing?.completion) },
    ]),
  );
}

/** Both prices, neither (`null`: no price of its own), or `undefined` when the draft is not a price. */
function priceOf(draft: PriceDraft): LlmEntry['pricing'] | null | undefined {
  if (!draft.prompt.trim() && !draft.completion.trim()) return null;
  const prompt = Number(draft.prompt);
  const completion = Number(draft.completion);
  const valid = (text: string, value: number) => text.trim() !== '' && Number.isFinite(value) && value >= 0;
  return valid(draft.prompt, prompt) && valid(draft.completion, completion) ? { prompt, completion } : undefined;
}

/** Usage & budget: the session token budget (`agent.maxTotalTokens`) and each provider's price per million tokens. */
export function UsageSection({ settings, save }: SectionProps) {
  const { t } = useTranslation();
  const [budget, setBudget] = useState(typed(settings.agent.maxTotalTokens));
  const [prices, setPrices] = useState(() => priceDrafts(settings.llms));
  const [problem, setProblem] = useState<string>();

  const submit = () => {
    const budgetValue = budget.trim() === '' ? undefined : Number(budget);
    if (budgetValue !== undefined && !(Number.isInteger(budgetValue) && budgetValue > 0)) {
      return setProblem(t('budget.badBudget'));
    }
    const llms = { ...settings.llms };
    for (const [name, draft] of Object.entries(prices)) {
      const pricing = priceOf(draft);
      if (pricing === undefined) return setProblem(t('budget.badPrice', { name }));
      llms[name] = { ...llms[name], pricing: pricing ?? undefined };
    }
    setProblem(undefined);
    void save({ ...settings, llms, agent: { ...settings.agent, maxTotalTokens: budgetValue } });
  };

  return (
    <form
      className="settings-form"
      // the checks below say what is wrong in the app's language, the browser's would not
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label className="field">
        <span>{t('budget.sessionBudget')}</span>
        <input
          type="number"
          min={1}
          step={1000}
          value={budget}
          placeholder={t('budget.noLimit')}
          onChange={(event) => setBudget(event.target.value)}
          data-testid="session-token-budget"
        />
        <small className="field-help">{t('budget.sessionBudgetHelp')}</small>
      </label>
      {Object.keys(prices).length > 0 ? (
        <>
          <h3>{t('budget.prices')}</h3>
          <p className="field-help">{t('budget.pricesHelp')}</p>
          {Object.entries(settings.llms).map(([name, llm]) => {
            const listed = knownPricing(llm.model);
            const draft = prices[name];
            const setDraft = (change: Partial<PriceDraft>) => setPrices({ ...prices, [name]: { ...draft, ...change } });
            return (
              <div className="field-row" key={name} data-testid={`price-${name}`}>
                <label className="field">
                  <span>{t('budget.model')}</span>
                  <input value={`${name} · ${llm.model}`} readOnly />
                  <small className="field-help">
                    {listed
                      ? `${t('budget.listPrice')}: $${listed.prompt} / $${listed.completion}`
                      : t('budget.noListPrice')}
                  </small>
                </label>
                <label className="field">
                  <span>{t('budget.input')}</span>
                  <input
                    type="number"
                    min={0}
                    step="any"
                    value={draft.prompt}
                    placeholder={listed ? String(listed.prompt) : ''}
                    onChange={(event) => setDraft({ prompt: event.target.value })}
                    data-testid={`price-${name}-input`}
                  />
                </label>
                <label className="field">
                  <span>{t('budget.output')}</span>
                  <input
                    type="number"
                    min={0}
                    step="any"
                    value={draft.completion}
                    placeholder={listed ? String(listed.completion) : ''}
                    onChange={(event) => setDraft({ completion: event.target.value })}
                    data-testid={`price-${name}-output`}
                  />
                </label>
              </div>
            );
          })}
        </>
      ) : null}
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="form-actions">
        <span className="spacer" />
        <button type="submit" className="primary" data-testid="save-usage">
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
