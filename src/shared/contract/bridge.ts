import type { CoreEvent } from '../events.js';
import type { InvokeResult } from '../contract.js';
import type { RequestName } from './names.js';
import type { UiCommand } from './ui-commands.js';

/** What the preload exposes as `window.manus`: exactly the contract, nothing of Node or Electron. */
export interface ManusBridge {
  invoke(name: RequestName, payload: unknown): Promise<InvokeResult<unknown>>;
  onEvent(listener: (event: CoreEvent) => void): () => void;
  onCommand(listener: (command: UiCommand) => void): () => void;
}
