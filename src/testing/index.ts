/**
 * affordance/testing: a deterministic scripted provider, a one-line test
 * runtime, a manual clock, helpers to inspect what an agent's wiring
 * does (container scopes and resource snapshots), the conformance
 * checks every provider adapter must pass, the contract every `BlobStore`
 * must keep, and cassettes that record a real provider once and replay it
 * offline (`RecordingAdapter`, `ReplayAdapter`).
 * @packageDocumentation
 */
export { adapterConformanceChecks } from './adapter-conformance-checks.js';
export {
  blobStoreContract,
  type BlobStoreContractCheck,
  type BlobStoreContractOptions,
} from './blob-store-contract.js';
export type {
  AdapterConformanceCheck,
  AdapterHarness,
  AdapterUnderTest,
  FedBackToolResult,
  HarnessOpenOptions,
} from './adapter-harness.js';
export {
  createTestRuntime,
  TEST_STATE_SECRET,
  type TestRuntime,
  type TestRuntimeOptions,
} from './create-test-runtime.js';
export { Cassette } from './cassette/cassette.js';
export {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type CassetteAdapterInfo,
  type CassetteFile,
  type CassetteInteraction,
  type CassetteMessage,
  type CassetteNativeCall,
  type CassetteRequest,
  type CassetteStreamPart,
  type CassetteTool,
  type CassetteToolCall,
  type CassetteTurn,
} from './cassette/cassette-format.js';
export {
  CassetteMismatchError,
  type CassetteMismatch,
} from './cassette/cassette-mismatch-error.js';
export type { CassetteRedaction } from './cassette/cassette-redactor.js';
export { RecordingAdapter, type RecordingAdapterOptions } from './cassette/recording-adapter.js';
export {
  type CassetteMode,
  ReplayAdapter,
  type ReplayAdapterOptions,
} from './cassette/replay-adapter.js';
export type { RequestDifference } from './cassette/request-diff.js';
export { ScriptMismatchError } from './script-mismatch-error.js';
export {
  ScriptedAdapter,
  type ScriptedAdapterOptions,
  type ScriptedToolCall,
  type ScriptedTurn,
} from './scripted-adapter.js';

export { ManualClock } from './manual-clock.js';
export { ResourceContext, ResourceSnapshot } from '../resources/resource-context.js';
export { assertScopes } from '../runtime/scope/assert-scopes.js';
export {
  checkScopes,
  type CheckScopesOptions,
  type ScopedServiceIds,
  type ScopeHop,
  type ScopeLeak,
  type ScopeProblem,
  type UnboundRoot,
  type UnplannableRoot,
  type ValueScope,
} from '../runtime/scope/check-scopes.js';
