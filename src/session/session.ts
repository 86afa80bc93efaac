import { randomId } from '../core/random-id.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { DispatchFailure, DispatchParticipant } from './dispatch-failure.js';
import { DispatchResult } from './dispatch-result.js';
import type { Dispatcher } from './dispatcher.js';
import type { EventHandler, EventType } from './event-type.js';
import { InProcessDispatcher } from './in-process-dispatcher.js';
import type { Snapshotable } from './snapshotable.js';
import { type Clock, systemClock } from '../core/clock.js';
import { assertCallOpen } from './call-frame.js';
import { isClassInstance } from '../core/is-class-instance.js';
import { PersistentList } from './persistent-list.js';
import type { ReducerContext } from './reducer.js';
import { SliceAccessor } from './slice-accessor.js';
import { SlicePolicy } from './slice-policy.js';
import { SliceReader } from './slice-reader.js';
import { type CapturedLists, SliceStore } from './slice-store.js';
import type { SliceType } from './slice-type.js';
import type { SessionView, SliceView } from './slice-view.js';
import { freezeStored, sessionTraitsOf } from './session-event-traits.js';
import { SessionSnapshot, type SnapshotEntry } from './session-snapshot.js';
import { stateReducers } from './state-reducers.js';
import { transaction } from './transaction.js';
import type {
  InstallOptions,
  RestoreOptions,
  SessionTransactionOptions,
} from './session-options.js';
import { checkCreatedAt, checkSessionId, checkSliceType } from './check-session-arguments.js';
import { describeValue } from '../core/describe-value.js';
import { checkTags } from './check-tags.js';

/** Options of the {@link Session} constructor. */
export interface SessionOptions {
  /** Receives every event after the reducers; a new `InProcessDispatcher` by default. */
  readonly dispatcher?: Dispatcher;
  /** The session this one was started from (e.g. by a sub-agent). */
  readonly parent?: Session | undefined;
  /** The session's id; a random UUID by default. */
  readonly sessionId?: string;
  /** When the session started; now by default. */
  readonly createdAt?: Date;
  /** String labels; `sessionId` and `parentSessionId` are added automatically. */
  readonly tags?: Readonly<Record<string, string>>;
  /** Source of time for `createdAt` and snapshots. */
  readonly clock?: Clock;
}

/** Options of {@link Session.clone}. */
export type CloneOptions = Omit<SessionOptions, 'createdAt' | 'clock'>;

/** The slices of a session as {@link Session.captureStates} found them. @internal */
export type SessionStates = CapturedLists;

/**
 * The state of an agent run: typed slices keyed by class, updated only by
 * dispatching events through pure, synchronous reducers. Stored values are
 * frozen and slices are immutable lists, so `snapshot()` costs the same for
 * ten values or a million and reducers cannot corrupt state. Every `dispatch`
 * runs to completion before another can start, so concurrent async tasks
 * dispatching into one session never lose or interleave updates. The runtime
 * runs the state-changing tool calls of every evaluation that shares a session
 * one at a time (nested evaluations inside a call included), so a failed call's
 * rollback never erases another call's committed work; and a call that was
 * rolled back can no longer write to it (see `ToolCallClosedError`).
 */
export class Session implements Snapshotable<SessionSnapshot> {
  /** The session's id. */
  readonly sessionId: string;
  /** When the session started. */
  readonly createdAt: Date;
  /** The session this one was started from, if any. */
  readonly parent: Session | undefined;
  /** Labels, including `sessionId` and (with a parent) `parentSessionId`. Frozen. */
  readonly tags: Readonly<Record<string, string>>;
  /** Receives every event dispatched through the session, after its reducers. */
  readonly dispatcher: Dispatcher;
  /** Read-only access to the session, safe to hand to code that must not change it. */
  readonly view: SessionView;

  #store = new SliceStore();
  // Created on first use: a session per evaluation should cost little until it is used.
  #installed: Set<SliceType> | undefined;
  #accessors: Map<SliceType, SliceAccessor<object>> | undefined;
  #readers: Map<SliceType, SliceReader<object>> | undefined;
  readonly #clock: Clock;
  readonly #userTags: Readonly<Record<string, string>>;
  readonly #context: ReducerContext;

  constructor(options: SessionOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.sessionId = checkSessionId(options.sessionId ?? randomId());
    this.createdAt = checkCreatedAt(options.createdAt ?? new Date(this.#clock.now()));
    if (options.parent !== undefined && !(options.parent instanceof Session)) {
      throw new ConfigurationError({
        subject: 'Session.parent',
        problem: 'must be a Session.',
        fix: 'Pass the session this one was started from, or leave parent out.',
      });
    }
    if (options.parent?.sessionId === this.sessionId) {
      throw new ConfigurationError({
        subject: `Session ${this.sessionId}`,
        problem: 'cannot be its own parent.',
        fix: 'Give the child session its own sessionId (or leave it out).',
      });
    }
    this.parent = options.parent;
    this.#userTags = checkTags(options.tags ?? {});
    const tags: Record<string, string> = { ...this.#userTags };
    tags['sessionId'] = this.sessionId;
    if (this.parent !== undefined) tags['parentSessionId'] = this.parent.sessionId;
    this.tags = Object.freeze(tags);
    this.dispatcher = options.dispatcher ?? new InProcessDispatcher();
    const view: SessionView = Object.freeze({
      sessionId: this.sessionId,
      tags: this.tags,
      slice: <T extends object>(type: SliceType<T>): SliceView<T> => this.#reader(type),
    });
    this.view = view;
    this.#context = Object.freeze({ session: view });
  }

  /** Read and write access to the slice keyed by `type`. */
  slice<T extends object>(type: SliceType<T>): SliceAccessor<T> {
    checkSliceType(type, 'session.slice');
    const accessors = (this.#accessors ??= new Map<SliceType, SliceAccessor<object>>());
    let accessor = accessors.get(type);
    if (accessor === undefined) {
      accessor = new SliceAccessor<object>(
        () => this.#store,
        type,
        (eventType, event) => this.#dispatch(eventType, event),
        () => {
          assertCallOpen(describeWrite, this);
        },
      );
      accessors.set(type, accessor);
    }
    return accessor as unknown as SliceAccessor<T>;
  }

  /**
   * A number that grows with every change to the session's slices (an event
   * recorded, a slice seeded or cleared, a restore). Two reads that return the
   * same number saw the same state; a paused evaluation's saved state uses it
   * to refuse resuming against a session that has moved on.
   */
  get version(): number {
    return this.#store.changes;
  }

  /**
   * Makes {@link version} continue from `version`: `SessionPersistence.open`
   * calls it on a session it loaded, with the version the stored copy had
   * when it was committed, so a state saved before the commit resumes against
   * the loaded copy (and a copy that moved on reads as stale). @internal
   */
  continueVersion(version: number): void {
    this.#store.changes = version;
  }

  /** Slice types that currently hold values. */
  get sliceTypes(): readonly SliceType[] {
    return this.#store.types();
  }

  /**
   * Freezes `event`, runs the reducers registered for its exact class (by
   * default, appends it to its own slice), fans a successful `ToolInvoked`
   * value or a `PromptExecuted` output out to its own slice, then delivers the
   * event to the dispatcher's subscribers. Failures are recorded, never thrown.
   */
  dispatch<E extends object>(event: E): DispatchResult<E> {
    if (!isClassInstance(event)) {
      throw new ConfigurationError({
        subject: 'session.dispatch',
        problem: `expected an instance of an event class, got ${describeValue(event)}.`,
        fix: 'Dispatch class instances (e.g. new TaskAdded({...})): slices and reducers are keyed by class.',
      });
    }
    return this.#dispatch(event.constructor as EventType<E>, event);
  }

  /** Whether `stateClass` was installed in this session (or in the session it was cloned from). */
  isInstalled(stateClass: SliceType): boolean {
    return this.#installed?.has(stateClass) ?? false;
  }

  /**
   * Registers the `@Reducer` methods of `stateClass` on its own slice. The
   * slice's latest value is the state; `initial` supplies it while the slice is
   * empty. Returns the slice.
   */
  install<T extends object>(
    stateClass: SliceType<T>,
    options: InstallOptions<T> = {},
  ): SliceAccessor<T> {
    checkSliceType(stateClass, 'session.install');
    if (this.isInstalled(stateClass)) {
      throw new ConfigurationError({
        subject: `session.install(${stateClass.name})`,
        problem: `${stateClass.name} is already installed in this session.`,
        fix: 'Install each state class once per session.',
      });
    }
    if (options.initial !== undefined && typeof options.initial !== 'function') {
      throw new ConfigurationError({
        subject: `session.install(${stateClass.name})`,
        problem: 'initial must be a function returning the starting state.',
        fix: `Pass { initial: () => new ${stateClass.name}() }.`,
      });
    }
    const slice = this.slice(stateClass);
    for (const [eventType, reducer] of stateReducers(stateClass, options.initial)) {
      slice.register(eventType, reducer);
    }
    (this.#installed ??= new Set()).add(stateClass);
    return slice;
  }

  /** Captures every slice in O(number of slices); values are shared, not copied. */
  snapshot(options: { readonly tag?: string } = {}): SessionSnapshot {
    const entries = new Map<SliceType, SnapshotEntry>();
    for (const [type, list] of this.#store.entries()) {
      entries.set(type, { list, policy: this.#store.policyOf(type) });
    }
    return SessionSnapshot.capture(
      this.sessionId,
      new Date(this.#clock.now()),
      options.tag,
      entries,
    );
  }

  /**
   * What a tool call's rollback restores with {@link Session.restoreStates}:
   * the slices as they are now, without the dated, labelled
   * {@link SessionSnapshot} a caller of `snapshot()` gets. @internal
   */
  captureStates(): SessionStates {
    return this.#store.captureLists();
  }

  /** Whether no STATE slice changed since {@link Session.captureStates} returned `states`. @internal */
  statesUnchangedSince(states: SessionStates): boolean {
    return this.#store.sameStates(states);
  }

  /** `restore` (logs kept) from {@link Session.captureStates}. @internal */
  restoreStates(states: SessionStates): void {
    this.#store.restoreStates(states);
  }

  /**
   * Returns every STATE slice to its content in `snapshot` (empty if it was
   * empty then). LOG slices keep everything unless `preserveLogs` is `false`.
   */
  restore(snapshot: SessionSnapshot, options: RestoreOptions = {}): void {
    const entries = SessionSnapshot.entriesOf(snapshot);
    if (entries === undefined) {
      throw new ConfigurationError({
        subject: 'session.restore',
        problem: 'expected a SessionSnapshot.',
        fix: 'Pass the value returned by session.snapshot().',
      });
    }
    const preserveLogs = options.preserveLogs ?? true;
    const types = new Set([...this.#store.types(), ...entries.keys()]);
    for (const type of types) {
      if (preserveLogs && this.#store.policyOf(type) === SlicePolicy.Log) continue;
      const entry = entries.get(type);
      this.#store.setList(type, entry?.list ?? PersistentList.empty());
    }
  }

  /**
   * Runs `fn` and rolls back the session's STATE slices (and every `include`d
   * participant) if it throws, rejects or `rollbackIf` holds. Sync or async.
   */
  transaction<R>(fn: () => R, options: SessionTransactionOptions<R> = {}): R {
    return transaction([this, ...(options.include ?? [])], fn, options);
  }

  /** Empties every slice, LOG slices included; reducers and policies stay. */
  reset(): void {
    this.#store.clearAll();
  }

  /**
   * A new session with the same slices, reducers, policies and installed state
   * classes, in O(number of slices). The two evolve independently afterwards.
   * It gets a new id and keeps this session's dispatcher, parent and tags unless
   * told otherwise.
   */
  clone(options: CloneOptions = {}): Session {
    const copy = new Session({
      dispatcher: options.dispatcher ?? this.dispatcher,
      parent: 'parent' in options ? options.parent : this.parent,
      tags: options.tags ?? this.#userTags,
      clock: this.#clock,
      ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    });
    copy.#store = new SliceStore(this.#store);
    if (this.#installed !== undefined) copy.#installed = new Set(this.#installed);
    return copy;
  }

  #reader<T extends object>(type: SliceType<T>): SliceView<T> {
    const readers = (this.#readers ??= new Map<SliceType, SliceReader<object>>());
    let reader = readers.get(type);
    if (reader === undefined) {
      reader = new SliceReader<object>(() => this.#store, type);
      readers.set(type, reader);
    }
    return reader as unknown as SliceView<T>;
  }

  /**
   * {@link Session.dispatch} for the runtime's own record of a tool call: the
   * same steps, answering only what failed, so a record that goes through
   * builds no `DispatchResult` (this runs for every call). @internal
   */
  record(event: object): readonly DispatchFailure[] {
    const failures: DispatchFailure[] = [];
    this.#apply(event.constructor as EventType, event, undefined, failures);
    return failures;
  }

  #dispatch<E extends object>(eventType: EventType<E>, event: E): DispatchResult<E> {
    const invoked: DispatchParticipant[] = [];
    const failures: DispatchFailure[] = [];
    const handlersInvoked = this.#apply(eventType, event, invoked, failures);
    return DispatchResult.adopting({
      event,
      handlersInvoked,
      reducersInvoked: invoked,
      errors: failures,
    });
  }

  /**
   * Freezes `event`, runs its reducers and fan-out, then delivers it to the
   * subscribers: the reducers called go to `invoked` (when given), what failed
   * to `failures`. Returns the subscribers called.
   */
  #apply<E extends object>(
    eventType: EventType<E>,
    event: E,
    invoked: DispatchParticipant[] | undefined,
    failures: DispatchFailure[],
  ): readonly EventHandler<E>[] {
    assertCallOpen(describeWrite, this);
    const traits = sessionTraitsOf(eventType);
    freezeStored(event);
    this.#store.reduce(event, eventType, this.#context, invoked, failures, event);
    for (const value of traits?.fanOut?.(event) ?? []) {
      this.#store.reduce(value, value.constructor as EventType, this.#context, invoked, failures);
    }
    const dispatcher = this.dispatcher;
    // The default dispatcher (not a subclass, which may dispatch its own way) delivers without building a result.
    if (
      dispatcher instanceof InProcessDispatcher &&
      dispatcher.constructor === InProcessDispatcher
    ) {
      return dispatcher.deliver(event, failures);
    }
    const delivered = dispatcher.dispatch(event);
    if (delivered.errors.length > 0) failures.push(...delivered.errors);
    return delivered.handlersInvoked;
  }
}

/** What `assertCallOpen` says a refused write to `session` was. */
function describeWrite(session: Session): string {
  return `a write to session ${session.sessionId}`;
}
