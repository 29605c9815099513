import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionInfo, SessionMode } from '../../../shared/events.js';
import './flow-choices.css';

/** the contract's bound on parallel steps */
const MAX_PARALLEL = 16;

/** What the composer sends a turn with: the mode and, for flows, the agents and parallel steps. */
export interface TurnChoices {
  mode: SessionMode;
  /** undefined: the core's default agents (the person chose none) */
  agents?: string[];
  /** undefined: one step at a time */
  parallel?: number;
}

/** The choices a session was last run with, or a new session's defaults. */
export function choicesOf(session: SessionInfo | undefined): TurnChoices {
  return { mode: session?.mode ?? 'agent', agents: session?.agents, parallel: session?.parallel };
}

/** The agents and parallel steps of a planning flow or Plan & act, chosen before sending. */
export function FlowChoices({
  choices,
  onChange,
  agents,
  defaultAgents,
}: {
  choices: TurnChoices;
  onChange: (choices: TurnChoices) => void;
  /** every agent the core can run */
  agents: string[];
  defaultAgents: string[];
}) {
  const { t, i18n } = useTranslation();
  // what is typed, kept while it is not a count yet (empty, mid-edit); the choice changes when it is one
  const [parallelText, setParallelText] = useState(String(choices.parallel ?? 1));
  // unchosen, Plan & act may route a step to any agent (the core's default for it); a planning flow to the default ones
  const chosen = choices.agents ?? (choices.mode === 'plan_act' ? agents : defaultAgents);
  const toggle = (name: string, on: boolean) => {
    const next = on ? [...chosen, name] : chosen.filter((agent) => agent !== name);
    // in the catalog's order, so the first one (other steps' agent) does not depend on the order of clicks
    onChange({ ...choices, agents: agents.filter((agent) => next.includes(agent)) });
  };
  return (
    <div className="flow-choices" data-testid="flow-choices">
      <fieldset className="flow-agents">
        <legend>{t('flowChoices.agents')}</legend>
        {agents.map((name) => {
          const checked = chosen.includes(name);
          return (
            <label key={name} className="flow-agent">
              <input
                type="checkbox"
                checked={checked}
                // a flow needs one agent at least: the last one stays
                disabled={checked && chosen.length === 1}
                onChange={(event) => toggle(name, event.target.checked)}
                data-agent={name}
              />
              {i18n.exists(`flowChoices.agent.${name}`) ? t(`flowChoices.agent.${name}`) : name}
            </label>
          );
        })}
      </fieldset>
      <label className="flow-parallel">
        {t('flowChoices.parallel')}
        <input
          type="number"
          min={1}
          max={MAX_PARALLEL}
          value={parallelText}
          onChange={(event) => {
            setParallelText(event.target.value);
            const value = Number(event.target.value);
            if (Number.isInteger(value) && value >= 1 && value <= MAX_PARALLEL)
              onChange({ ...choices, parallel: value });
          }}
          // leaving the field shows the count that will be sent
          onBlur={() => setParallelText(String(choices.parallel ?? 1))}
          aria-describedby="flow-parallel-hint"
          data-testid="flow-parallel"
        />
      </label>
      <p className="flow-hint">
        <span>{t('flowChoices.tagHint')}</span> <span id="flow-parallel-hint">{t('flowChoices.parallelHint')}</span>
      </p>
    </div>
  );
}
