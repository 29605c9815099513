/**
 * The request names of the contract, without zod: the sandboxed preload imports only this file
 * (it cannot load node_modules), and ../contract.ts checks at compile time that it matches the table.
 */
export const REQUEST_NAMES = [
  'startTask',
  'cancel',
  'resume',
  'retryTurn',
  'answer',
  'listSessions',
  'getSession',
  'getEvents',
  'getEventWindow',
  'getSessionOutline',
  'searchSessions',
  'renameSession',
  'deleteSession',
  'exportSession',
  'getSettings',
  'updateSettings',
  'appInfo',
  'testLlm',
  'mcpStatus',
  'importMcpConfig',
  'confirmMcpServer',
  'mcpSignIn',
  'mcpSignInCancel',
  'mcpSignOut',
  'sandboxStatus',
  'buildSandbox',
  'listWorkspace',
  'readWorkspaceFile',
  'uploadFiles',
  'beginUpload',
  'appendUpload',
  'cancelUpload',
  'checkWorkspaceFolder',
  'recentWorkspaces',
  'pickWorkspaceFolder',
  'openWorkspaceFile',
  'setUiLanguage',
] as const;

export type RequestName = (typeof REQUEST_NAMES)[number];

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && (REQUEST_NAMES as readonly string[]).includes(name);
}

/** The IPC channels the shell and preload share. */
export const IPC_INVOKE_CHANNEL = 'manus:invoke';
export const IPC_EVENT_CHANNEL = 'manus:event';
