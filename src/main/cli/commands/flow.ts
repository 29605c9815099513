import { Command, InvalidArgumentError, Option } from 'commander';
import { addTurnOptions, positiveInt, type TurnOptions } from '../turn-options.js';

interface FlowCommandOptions extends TurnOptions {
  mode: 'planning' | 'plan-act';
  agents?: string;
  parallel?: number;
  timeout?: number;
  maxStepRuns?: number;
}

/** `--timeout`: minutes, a fraction allowed. */
function positiveMinutes(value: string): number {
  const minutes = Number(value);
  if (!Number.isFinite(minutes) || minutes <= 0) throw new InvalidArgumentError('must be a positive number of minutes');
  return minutes;
}

/** `manus flow "<task>"`: a plan made by the model, carried out step by step by the chosen agents. */
export function flowCommand(): Command {
  return addTurnOptions(
    new Command('flow')
      .description('plan a task and carry out its steps with several agents (planning flow or Plan-Act)')
      .argument('<task...>', 'what to do')
      .addOption(
        new Option('--mode <mode>', 'how to plan and execute').choices(['planning', 'plan-act']).default('planning'),
      )
      .option('--agents <names>', 'comma-separated agents the flow may use (e.g. manus,data_analysis,swe,browser)')
      .option('--parallel <n>', 'run up to n independent steps at the same time', positiveInt)
      .option(
        '--timeout <minutes>',
        'stop and summarise after this many minutes (default: setting planning.timeoutMinutes / planAct.timeoutMinutes)',
        positiveMinutes,
      )
      .option(
        '--max-step-runs <n>',
        'stop and summarise after n step runs (default: setting planning.maxStepRuns / planAct.maxStepsPerPlan)',
        positiveInt,
      ),
    {
      workspace: 'the folder the agents work in (default: a new folder per session)',
      maxSteps: 'step limit of each plan step',
    },
  ).action(async (taskWords: string[], options: FlowCommandOptions, command: Command) => {
    const [{ runTurnFromCli }, { BUILTIN_AGENTS }, { checkAgents }] = await Promise.all([
      import('../run-session.js'),
      import('../../agent/agent-catalog.js'),
      import('../../flow/flow-modes.js'),
    ]);
    // bad agent names fail before anything is created; none named: the mode's own default (Plan-Act: every agent)
    const agents = options.agents ? checkAgents(options.agents.split(','), Object.keys(BUILTIN_AGENTS)) : undefined;
    await runTurnFromCli(command, options, (service) =>
      service.start({
        task: taskWords.join(' '),
        sessionId: options.session,
        workspace: options.workspace,
        maxSteps: options.maxSteps,
        maxTotalTokens: options.maxTokens,
        mode: options.mode === 'plan-act' ? 'plan_act' : 'planning',
        agents,
        parallel: options.parallel ?? 1,
        maxStepRuns: options.maxStepRuns,
        timeoutMinutes: options.timeout,
      }),
    );
  });
}
