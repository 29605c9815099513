export { startFakeLlm } from './server.js';
export { sequence } from './sequence.js';
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
