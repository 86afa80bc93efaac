import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { DispatchResult } from './dispatch-result.js';
import type { EventType } from './event-type.js';
import { PersistentList } from './persistent-list.js';
import type { Reducer } from './reducer.js';
import type { SlicePolicy } from './slice-policy.js';
import { SliceReader } from './slice-reader.js';
import { admit, type SliceStore } from './slice-store.js';
import type { SliceType } from './slice-type.js';

/** Options of {@link SliceAccessor.register}. */
export interface RegisterOptions {
  /** Sets the slice's policy at the same time. */
  readonly policy?: SlicePolicy;
}

/** How an accessor dispatches through its session. @internal */
export type DispatchAs = <E extends object>(type: EventType<E>, event: E) => DispatchResult<E>;

/**
 * Read and write access to one slice of a session, from `session.slice(Type)`.
 * Reads are pure; `append` goes through the reducers like any event; `seed` and
 * `clear` change the slice directly.
 */
export class SliceAccessor<T extends object> extends SliceReader<T> {
  private readonly dispatchAs: DispatchAs;
  private readonly checkWritable: () => void;

  /** @internal Use `session.slice(Type)`. */
  constructor(
    store: () => SliceStore,
    type: SliceType<T>,
    dispatchAs: DispatchAs,
    checkWritable: () => void,
  ) {
    super(store, type);
    this.dispatchAs = dispatchAs;
    this.checkWritable = checkWritable;
  }

  /**
   * Dispatches `value` as an event of this slice's type: its reducers run (by
   * default it is appended), then the session's subscribers see it.
   */
  append(value: T): DispatchResult<T> {
    if (!(value instanceof this.type)) {
      throw new ConfigurationError({
        subject: `session.slice(${this.type.name}).append`,
        problem: `expected an instance of ${this.type.name}.`,
        fix: `Pass a ${this.type.name}, e.g. Object.assign(new ${this.type.name}(), data).`,
      });
    }
    return this.dispatchAs(this.type, value);
  }

  /** Replaces the slice's content with `values` (or one value), without running reducers. */
  seed(values: T | Iterable<T>): void {
    this.checkWritable();
    const items = values instanceof this.type || !isIterable(values) ? [values] : [...values];
    const subject = `session.slice(${this.type.name}).seed`;
    this.store().setList(
      this.type,
      PersistentList.from(items.map((value) => admit(this.type, subject, value))),
    );
  }

  /** Removes the values for which `predicate` holds, or every value. */
  clear(predicate?: (value: T) => boolean): void {
    this.checkWritable();
    const list = this.list();
    this.store().setList(
      this.type,
      predicate === undefined ? PersistentList.empty() : list.filter((value) => !predicate(value)),
    );
  }

  /**
   * Runs `reducer` on this slice for every event of exactly `eventType`, after
   * the reducers registered before it. Once a type has a reducer, its events
   * are no longer appended to their own slice by default.
   */
  register<E extends object>(
    eventType: EventType<E>,
    reducer: Reducer<T, E>,
    options: RegisterOptions = {},
  ): this {
    if (typeof eventType !== 'function' || typeof reducer !== 'function') {
      throw new ConfigurationError({
        subject: `session.slice(${this.type.name}).register`,
        problem: 'expected an event class and a reducer function.',
        fix: `Call register(EventClass, (view, event) => SliceOp.append(...)).`,
      });
    }
    if (options.policy !== undefined) this.store().setPolicy(this.type, options.policy);
    this.store().register(eventType, this.type, reducer as unknown as Reducer<object, object>);
    return this;
  }

  /** Sets whether the slice rolls back on restore (`state`) or is kept (`log`). */
  setPolicy(policy: SlicePolicy): this {
    this.store().setPolicy(this.type, policy);
    return this;
  }
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
  );
}
