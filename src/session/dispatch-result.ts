import { describeThrown } from '../core/errors/describe-thrown.js';
import type { DispatchFailure, DispatchParticipant } from './dispatch-failure.js';
import type { EventHandler } from './event-type.js';

/** Fields of a {@link DispatchResult}. */
export interface DispatchResultInit<E extends object> {
  /** The dispatched event. */
  readonly event: E;
  /** Subscribers called, in order, including those that failed. */
  readonly handlersInvoked?: readonly EventHandler<E>[];
  /** Session reducers called, in order, including those that failed. */
  readonly reducersInvoked?: readonly DispatchParticipant[];
  /** Every failure, in the order it happened. */
  readonly errors?: readonly DispatchFailure[];
}

/**
 * What happened when an event was dispatched: who handled it and what failed.
 * Dispatch never throws for a failing handler; call `raiseIfErrors()` when a
 * failure must stop the caller.
 */
export class DispatchResult<E extends object = object> {
  /** The dispatched event. */
  readonly event: E;
  /** Subscribers called, in order, including those that failed. */
  readonly handlersInvoked: readonly EventHandler<E>[];
  /** Session reducers called, in order, including those that failed. */
  readonly reducersInvoked: readonly DispatchParticipant[];
  /** Every failure, in the order it happened. */
  readonly errors: readonly DispatchFailure[];

  constructor(init: DispatchResultInit<E>, adopt = false) {
    this.event = init.event;
    const take = adopt ? frozen : frozenCopy;
    this.handlersInvoked = take(init.handlersInvoked);
    this.reducersInvoked = take(init.reducersInvoked);
    this.errors = take(init.errors);
    Object.freeze(this);
  }

  /** @internal A result that freezes and keeps the given arrays instead of copying them. */
  static adopting<E extends object>(init: DispatchResultInit<E>): DispatchResult<E> {
    return new DispatchResult(init, true);
  }

  /** Whether nothing failed. */
  get ok(): boolean {
    return this.errors.length === 0;
  }

  /** Number of subscribers called (failed ones count). */
  get handledCount(): number {
    return this.handlersInvoked.length;
  }

  /** Throws an `AggregateError` of every failure's error, if there were any. */
  raiseIfErrors(): void {
    if (this.ok) return;
    const type = this.event.constructor.name;
    const details = this.errors.map(describeFailure).join('; ');
    throw new AggregateError(
      this.errors.map((failure) => failure.error),
      `Errors while dispatching ${type}: ${details}`,
    );
  }

  /** This result followed by `other` (same event), e.g. reducers then subscribers. */
  concat(other: DispatchResult<E>): DispatchResult<E> {
    return new DispatchResult({
      event: this.event,
      handlersInvoked: [...this.handlersInvoked, ...other.handlersInvoked],
      reducersInvoked: [...this.reducersInvoked, ...other.reducersInvoked],
      errors: [...this.errors, ...other.errors],
    });
  }
}

const none: readonly never[] = Object.freeze([]);

function frozenCopy<T>(items: readonly T[] | undefined): readonly T[] {
  return items === undefined || items.length === 0 ? none : Object.freeze([...items]);
}

function frozen<T>(items: readonly T[] | undefined): readonly T[] {
  return items === undefined || items.length === 0 ? none : Object.freeze(items);
}

function describeFailure(failure: DispatchFailure): string {
  const name = failure.handler.name === '' ? '<anonymous>' : failure.handler.name;
  const slice = failure.slice === undefined ? '' : ` on slice ${failure.slice.name}`;
  return `${failure.source} ${name}${slice} failed with ${describeFailureError(failure.error)}`;
}

function describeFailureError(error: unknown): string {
  try {
    if (error instanceof Error) return `${error.name}: ${describeThrown(error)}`;
  } catch {
    // A hostile error: described below without reading it.
  }
  return `threw ${describeThrown(error)}`;
}
