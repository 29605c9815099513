/** Commands the application menu sends to the renderer (the second stream of the contract, zod-free for the preload). */
export const UI_COMMANDS = ['newSession', 'stop', 'focusComposer', 'search', 'openSettings', 'togglePlan'] as const;
export type UiCommand = (typeof UI_COMMANDS)[number];

export function isUiCommand(value: unknown): value is UiCommand {
  return typeof value === 'string' && (UI_COMMANDS as readonly string[]).includes(value);
}

export const IPC_COMMAND_CHANNEL = 'manus:command';
