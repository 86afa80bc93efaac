/**
 * affordance/testing: a deterministic scripted provider, a one-line test
 * runtime, a manual clock, and helpers to inspect what an agent's wiring
 * does: container scopes and resource snapshots.
 * @packageDocumentation
 */
export {
  createTestRuntime,
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

export { ManualClock } from '../core/manual-clock.js';
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
