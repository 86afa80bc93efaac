import type { EvaluationState } from './evaluation-state.js';

/**
 * Where paused evaluations wait for a person: save a state when an
 * evaluation pauses, take it back (once) when the decisions arrive. `take`
 * hands a state out once, so two approvals of one pause cannot both resume it.
 * {@link InMemoryEvaluationStateStore} keeps states in this process; a durable
 * store (a database table, a Redis key) extends this class. The class is also
 * the injection token: `container.bind(EvaluationStateStore).toConstantValue(store)`.
 */
export abstract class EvaluationStateStore {
  /** Keeps `state` under its `stateId` and returns that id. */
  abstract save(state: EvaluationState): Promise<string>;
  /** The state saved under `stateId`, removed from the store; `undefined` when there is none (or it was taken). */
  abstract take(stateId: string): Promise<EvaluationState | undefined>;
  /** The state saved under `stateId`, left in the store (to show what waits); `undefined` when there is none. */
  abstract peek(stateId: string): Promise<EvaluationState | undefined>;
}

/**
 * An {@link EvaluationStateStore} in this process's memory: states are kept
 * as JSON text (what a durable store would hold) and parsed anew on each
 * read, so no caller shares an object with another. Lost on restart.
 */
export class InMemoryEvaluationStateStore extends EvaluationStateStore {
  readonly #states = new Map<string, string>();

  /** How many states wait. */
  get size(): number {
    return this.#states.size;
  }

  /** Keeps `state` under its `stateId`. */
  save(state: EvaluationState): Promise<string> {
    this.#states.set(state.stateId, JSON.stringify(state));
    return Promise.resolve(state.stateId);
  }

  /** Removes and returns the state saved under `stateId`. */
  take(stateId: string): Promise<EvaluationState | undefined> {
    const text = this.#states.get(stateId);
    this.#states.delete(stateId);
    return Promise.resolve(text === undefined ? undefined : (JSON.parse(text) as EvaluationState));
  }

  /** Returns the state saved under `stateId`, leaving it in the store. */
  peek(stateId: string): Promise<EvaluationState | undefined> {
    const text = this.#states.get(stateId);
    return Promise.resolve(text === undefined ? undefined : (JSON.parse(text) as EvaluationState));
  }
}
