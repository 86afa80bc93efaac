/**
 * affordance/testing: a deterministic scripted provider and helpers to test
 * agents offline.
 * @packageDocumentation
 */
export {
  createTestRuntime,
  type TestRuntime,
  type TestRuntimeOptions,
} from './create-test-runtime.js';
export { ScriptMismatchError } from './script-mismatch-error.js';
export { ScriptedAdapter, type ScriptedToolCall, type ScriptedTurn } from './scripted-adapter.js';
