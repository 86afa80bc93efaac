/**
 * affordance/testing: a deterministic scripted provider, a one-line test
 * runtime, a manual clock, helpers to inspect what an agent's wiring
 * does (container scopes and resource snapshots), the conformance
 * checks every provider adapter must pass, and the contract every
 * `BlobStore` must keep.
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
