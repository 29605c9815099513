import { Command, Option } from 'commander';
import { runTurnFromCli } from '../run-session.js';
import { checkAgents } from '../../flow/index.js';
import { positiveInt } from './run.js';

interface FlowCommandOptions {
  mode: 'planning' | 'plan-act';
  agents?: string;
  parallel?: number;
  json?: boolean;
  workspace?: string;
  model?: string;
  baseUrl?: string;
  maxSteps?: number;
  sandbox?: 'docker' | 'local';
  session?: string;
}

/** `manus flow "<task>"`: a plan made by the model, carried out step by step by the chosen agents. */
export function flowCommand(): Command {
  return new Command('flow')
    .description('plan a task and carry out its steps with several agents (planning flow or Plan-Act)')
    .argument('<task...>', 'what to do')
    .addOption(
      new Option('--mode <mode>', 'how to plan and execute').choices(['planning', 'plan-act']).default('planning'),
    )
    .option('--agents <names>', 'comma-separated agents the flow may use (e.g. manus,data_analysis,swe,browser)')
    .option('--parallel <n>', 'run up to n independent steps at the same time', positiveInt)
    .option('--json', 'print events as NDJSON on stdout (one event per line)')
    .option('--workspace <dir>', 'the folder the agents work in (default: a new folder per session)')
    .option('--model <model>', 'a configured provider name or a model id')
    .option('--base-url <url>', 'an OpenAI-compatible endpoint')
    .option('--max-steps <n>', 'step limit of each plan step', positiveInt)
    .addOption(new Option('--sandbox <mode>', 'where code runs').choices(['docker', 'local']))
    .option('--session <id>', 'continue an existing session with this message')
    .action(async (taskWords: string[], options: FlowCommandOptions, command: Command) => {
      // bad agent names fail before anything is created
      const agents = checkAgents(options.agents?.split(','));
      await runTurnFromCli(command, options, (service) =>
        service.start({
          task: taskWords.join(' '),
          sessionId: options.session,
          workspace: options.workspace,
          maxSteps: options.maxSteps,
          mode: options.mode === 'plan-act' ? 'plan_act' : 'planning',
          agents,
          parallel: options.parallel ?? 1,
        }),
      );
    });
}
