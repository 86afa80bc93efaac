import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { DispatchFailure, DispatchParticipant } from './dispatch-failure.js';
import type { EventType } from './event-type.js';
import { isThenable } from '../core/is-thenable.js';
import { appendAll } from './append-all.js';
import { PersistentList } from './persistent-list.js';
import { freezeStored, sessionTraitsOf } from './session-event-traits.js';
import type { Reducer, ReducerContext } from './reducer.js';
import { expectSliceOp, SliceOp } from './slice-op.js';
import { SlicePolicy } from './slice-policy.js';
import type { SliceType } from './slice-type.js';

/** A reducer bound to the slice it updates. @internal */
export interface Registration {
  readonly slice: SliceType;
  readonly reducer: Reducer<object, object>;
}

/**
 * The mutable heart of a session: one immutable list per slice, the policies
 * and the reducers. Replacing a list is the only way state changes, so a copy
 * of the list map is a complete, O(number of slices) snapshot. @internal
 */
export class SliceStore {
  private readonly lists: Map<SliceType, PersistentList<object>>;
  // Created on first use: most sessions set no policy, and many register no reducer.
  private policies: Map<SliceType, SlicePolicy> | undefined;
  private registrations: Map<EventType, readonly Registration[]> | undefined;
  /** How many times a list was replaced or cleared: the session's version. */
  changes: number;

  constructor(source?: SliceStore) {
    this.changes = source?.changes ?? 0;
    if (source === undefined) {
      this.lists = new Map();
    } else {
      this.lists = new Map(source.lists);
      if (source.policies !== undefined) this.policies = new Map(source.policies);
      if (source.registrations !== undefined) this.registrations = new Map(source.registrations);
    }
  }

  list<T extends object>(type: SliceType<T>): PersistentList<T> {
    return (this.lists.get(type) ?? PersistentList.empty()) as PersistentList<T>;
  }

  setList(type: SliceType, list: PersistentList<object>): void {
    this.changes += 1;
    if (list.size === 0) this.lists.delete(type);
    else this.lists.set(type, list);
  }

  /** Slice types that currently hold values, in creation order. */
  types(): SliceType[] {
    return [...this.lists.keys()];
  }

  /** Every non-empty slice with its list, for snapshots. */
  entries(): [SliceType, PersistentList<object>][] {
    return [...this.lists];
  }

  /**
   * The lists as they are now, for a tool call's rollback: slice types and
   * lists alternating (lists are immutable, so references are enough; an array
   * filled by `forEach` costs less than a copied `Map`).
   */
  captureLists(): CapturedLists {
    const captured: (SliceType | PersistentList<object>)[] = [];
    this.lists.forEach(pushEntry, captured);
    return captured;
  }

  /** Returns every STATE slice to its list in `captured` (empty if absent); LOG slices keep theirs. */
  restoreStates(captured: CapturedLists): void {
    const lists = new Map<SliceType, PersistentList<object>>();
    for (let at = 0; at < captured.length; at += 2) {
      lists.set(captured[at] as SliceType, captured[at + 1] as PersistentList<object>);
    }
    for (const type of this.types()) {
      if (!lists.has(type) && this.policyOf(type) !== SlicePolicy.Log) {
        this.setList(type, PersistentList.empty());
      }
    }
    for (const [type, list] of lists) {
      if (this.policyOf(type) !== SlicePolicy.Log) this.setList(type, list);
    }
  }

  /** Whether every STATE slice still holds its list in `captured` (LOG slices are not compared). */
  sameStates(captured: CapturedLists): boolean {
    const lists = new Map<SliceType, PersistentList<object>>();
    for (let at = 0; at < captured.length; at += 2) {
      lists.set(captured[at] as SliceType, captured[at + 1] as PersistentList<object>);
    }
    for (const [type, list] of this.lists) {
      if (this.policyOf(type) !== SlicePolicy.Log && lists.get(type) !== list) return false;
    }
    for (const type of lists.keys()) {
      if (!this.lists.has(type) && this.policyOf(type) !== SlicePolicy.Log) return false;
    }
    return true;
  }

  clearAll(): void {
    this.changes += 1;
    this.lists.clear();
  }

  policyOf(type: SliceType): SlicePolicy {
    return (
      this.policies?.get(type) ??
      (sessionTraitsOf(type)?.logged === true ? SlicePolicy.Log : SlicePolicy.State)
    );
  }

  setPolicy(type: SliceType, policy: SlicePolicy): void {
    const given: unknown = policy;
    if (given !== SlicePolicy.Log && given !== SlicePolicy.State) {
      throw new ConfigurationError({
        subject: `Slice ${type.name}`,
        problem: `unknown policy ${String(given)}.`,
        fix: "Use SlicePolicy.State ('state') or SlicePolicy.Log ('log').",
      });
    }
    (this.policies ??= new Map()).set(type, policy);
  }

  register(eventType: EventType, slice: SliceType, reducer: Reducer<object, object>): void {
    // A logged event keeps its ledger entry beside the reducers registered for it.
    const current =
      this.registrations?.get(eventType) ??
      (sessionTraitsOf(eventType)?.logged === true ? ledgerOf(eventType) : []);
    (this.registrations ??= new Map()).set(eventType, [...current, { slice, reducer }]);
  }

  /**
   * Runs every reducer registered for `eventType` (or the ledger default into
   * the event's own slice). Each reducer's change is applied whole or not at
   * all; failures are recorded and never stop the other reducers (the
   * reducers called go to `invoked`, when it is given). `frozen`:
   * the event when the session already froze it, so storing it as it is costs
   * nothing more.
   */
  reduce(
    event: object,
    eventType: EventType,
    context: ReducerContext,
    invoked: DispatchParticipant[] | undefined,
    failures: DispatchFailure[],
    frozen?: object,
  ): void {
    const registrations = this.registrations?.get(eventType) ?? ledgerOf(eventType);
    for (const { slice, reducer } of registrations) {
      invoked?.push(reducer);
      try {
        // appendAll (every log's ledger) reads nothing: it gets no view of the slice.
        const returned: unknown =
          reducer === appendAll
            ? SliceOp.append(event)
            : reducer(context.session.slice(slice), event, context);
        if (isThenable(returned)) {
          returned.then(undefined, () => undefined);
          throw asyncReducerError(reducer);
        }
        const op = expectSliceOp(reducer.name, returned);
        if (op !== undefined)
          this.setList(slice, applyOp(slice, reducer, this.list(slice), op, frozen));
      } catch (error) {
        failures.push({ source: 'reducer', handler: reducer, error, slice });
      }
    }
  }
}

/** Slice types and their lists, alternating, from {@link SliceStore.captureLists}. @internal */
export type CapturedLists = readonly (SliceType | PersistentList<object>)[];

function pushEntry(
  this: (SliceType | PersistentList<object>)[],
  list: PersistentList<object>,
  type: SliceType,
): void {
  this.push(type, list);
}

const ledgers = new WeakMap<EventType, readonly Registration[]>();

/** The default registration of a type with no reducers: append to its own slice. */
function ledgerOf(eventType: EventType): readonly Registration[] {
  let ledger = ledgers.get(eventType);
  if (ledger === undefined) {
    ledger = Object.freeze([{ slice: eventType, reducer: appendAll }]);
    ledgers.set(eventType, ledger);
  }
  return ledger;
}

function applyOp(
  slice: SliceType,
  reducer: DispatchParticipant,
  list: PersistentList<object>,
  op: SliceOp<unknown>,
  frozen: object | undefined,
): PersistentList<object> {
  switch (op.kind) {
    case 'append':
      // The reduced event itself (a log's append) was frozen when it was dispatched.
      return list.push(
        op.value === frozen && frozen instanceof slice ? frozen : admit(slice, reducer, op.value),
      );
    case 'extend':
      return list.concat(op.values.map((value) => admit(slice, reducer, value)));
    case 'replace':
      return PersistentList.from(op.values.map((value) => admit(slice, reducer, value)));
    case 'clear': {
      const predicate = op.predicate;
      return predicate === undefined
        ? PersistentList.empty()
        : list.filter((value) => !predicate(value));
    }
  }
}

/** Checks a value belongs in `slice` and freezes it. @internal */
export function admit(
  slice: SliceType,
  source: DispatchParticipant | string,
  value: unknown,
): object {
  if (typeof value !== 'object' || value === null || !(value instanceof slice)) {
    const who = typeof source === 'string' ? source : `Reducer ${source.name || '<anonymous>'}`;
    const what =
      typeof value === 'object' && value !== null
        ? `an instance of ${value.constructor.name}`
        : String(value);
    throw new ConfigurationError({
      subject: who,
      problem: `tried to put ${what} into slice ${slice.name}, which only holds ${slice.name} instances.`,
      fix: `Store instances of ${slice.name} (e.g. Object.assign(new ${slice.name}(), data)), or register the reducer on the slice of the value's own class.`,
    });
  }
  return freezeStored(value);
}

function asyncReducerError(reducer: DispatchParticipant): ConfigurationError {
  return new ConfigurationError({
    subject: `Reducer ${reducer.name || '<anonymous>'}`,
    problem:
      'returned a promise; reducers must be synchronous so that every change is applied whole and can be rolled back.',
    fix: 'Compute the change synchronously and return a SliceOp; do async work in the tool handler before dispatching.',
  });
}
