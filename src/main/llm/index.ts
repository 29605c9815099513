export { createLlm, LlmClient, type LlmClientOptions } from './client.js';
export { listModels, testConnection, type ConnectionReport } from './connection.js';
export { LLM_NOTICE_CODES, type LlmNoticeCode } from './notices.js';
export { LlmError, isLlmError, LLM_ERROR_CODES, type LlmErrorCode } from './errors.js';
export { UsageTracker, addUsage, usageTotals, ZERO_USAGE } from './usage.js';
export { createTokenCounter, type TokenCounter } from './tokens.js';
export { fitContext } from './context-fit.js';
export { isReasoningModel, supportsVision } from './model-traits.js';
export type * from './types.js';
