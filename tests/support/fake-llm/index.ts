export { startFakeLlm } from './server.js';
export { sequence } from './sequence.js';
export { geminiProblems, strictModeProblems, type ToolSchemaRules } from './schema-rules.js';
export { toolCallsAsText, type TextToolCallStyle } from './text-tool-calls.js';
export type {
  CapturedRequest,
  FakeAnswer,
  FakeFault,
  FakeLlm,
  FakeLlmOptions,
  FakeReply,
  FakeToolCall,
  FakeUsage,
  Script,
  ScriptRequest,
} from './types.js';
