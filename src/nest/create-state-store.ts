import {
  ConfigurationError,
  EvaluationStateStore,
  InMemoryEvaluationStateStore,
} from '../index.js';
import type { AffordanceModuleOptions } from './affordance-module-options.js';

/**
 * The store the module provides under the `EvaluationStateStore` token: the
 * `stateStore` option, or a new {@link InMemoryEvaluationStateStore}.
 * @internal
 */
export function createStateStore(
  options: Pick<AffordanceModuleOptions, 'stateStore'>,
): EvaluationStateStore {
  return options.stateStore ?? new InMemoryEvaluationStateStore();
}

/**
 * Checks the `stateStore` option when the module is declared: absent, or an
 * object with the store's `save`, `take` and `peek` methods (an
 * `EvaluationStateStore` subclass, or an object shaped like one).
 * @internal
 */
export function assertStateStore(store: unknown, where: string): void {
  if (store === undefined || store instanceof EvaluationStateStore) return;
  const methods = ['save', 'take', 'peek'] as const;
  const missing =
    typeof store === 'object' && store !== null
      ? methods.filter((name) => typeof (store as Record<string, unknown>)[name] !== 'function')
      : methods;
  if (missing.length === 0) return;
  const got =
    typeof store === 'object' && store !== null
      ? `an object without ${missing.join(', ')}`
      : store === null
        ? 'null'
        : typeof store;
  throw new ConfigurationError({
    subject: where,
    problem: `options.stateStore must be an EvaluationStateStore (save, take and peek), got ${got}.`,
    fix:
      'Pass an instance of a class extending EvaluationStateStore (e.g. new InMemoryEvaluationStateStore(), ' +
      'or a store backed by your database), or leave the option out for an in-memory store.',
  });
}
