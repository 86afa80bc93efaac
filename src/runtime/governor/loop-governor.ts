import { LoopStoppedError } from '../../core/errors/loop-stopped-error.js';
import type { SessionStates } from '../../session/session.js';
import { evaluationEventFields } from '../events/event-fields.js';
import {
  LoopIntervention,
  type LoopInterventionAction,
  type LoopInterventionReason,
} from '../events/loop-intervention.js';
import type { EvaluationScope } from '../scope/evaluation-scope.js';
import type { EvaluationObserver } from '../telemetry/evaluation-observer.js';
import type { ToolCallOutcome } from '../tool-call-outcome.js';
import type { LoopGovernorSettings } from './loop-governor-options.js';

/** What the governor decided after a turn's calls: go on, tell the model `notice`, or stop. @internal */
export type GovernorVerdict =
  | { readonly kind: 'continue' }
  | { readonly kind: 'warn'; readonly notice: string }
  | { readonly kind: 'stop'; readonly error: LoopStoppedError };

const CONTINUE: GovernorVerdict = Object.freeze({ kind: 'continue' });

/** The text of the last-turn notice. */
export const LAST_TURN_NOTICE =
  'This is the last request this evaluation allows: answer now with what you have. ' +
  'Any tool you call now will run, but you will not get another turn to read its result.';

/**
 * One evaluation's loop governor (see `LoopGovernorOptions`): counts identical
 * failures and turns without progress, warns the model once per reason, then
 * stops the evaluation; records each intervention as a `LoopIntervention`
 * and tells the evaluation's observer. @internal
 */
export class LoopGovernor {
  readonly #settings: LoopGovernorSettings;
  readonly #scope: EvaluationScope;
  readonly #observer: EvaluationObserver | undefined;
  /** How often each failing call (tool, arguments, failure) failed. */
  readonly #failures = new Map<number, number>();
  /** Successful calls seen (tool, arguments, result text). */
  readonly #seen = new Set<number>();
  readonly #warned = new Set<LoopInterventionReason>();
  #idleTurns = 0;

  constructor(
    settings: LoopGovernorSettings,
    scope: EvaluationScope,
    observer: EvaluationObserver | undefined,
  ) {
    this.#settings = settings;
    this.#scope = scope;
    this.#observer = observer;
  }

  /** The session's state before a turn's calls run (what progress is measured against). */
  before(): SessionStates | undefined {
    return this.#settings.enabled ? this.#scope.session.captureStates() : undefined;
  }

  /** The notice the request of `turn` carries when it is the last one `maxTurns` allows. */
  lastTurnNotice(turn: number, maxTurns: number): string | undefined {
    if (!this.#settings.lastTurnNotice || maxTurns < 2 || turn !== maxTurns - 1) return undefined;
    this.#record('last-turn', 'last-turn', turn, LAST_TURN_NOTICE, undefined);
    return LAST_TURN_NOTICE;
  }

  /** Judges turn `turn`'s `outcomes`, the session's state before them being `before`. */
  after(
    outcomes: readonly ToolCallOutcome[],
    before: SessionStates | undefined,
    turn: number,
  ): GovernorVerdict {
    if (before === undefined || outcomes.length === 0) return CONTINUE;
    let repeated: ToolCallOutcome | undefined;
    let progress = !this.#scope.session.statesUnchangedSince(before);
    for (const outcome of outcomes) {
      const key = fingerprint(outcome);
      if (outcome.event.outcome === 'success') {
        if (!this.#seen.has(key)) progress = true;
        this.#seen.add(key);
        continue;
      }
      const times = (this.#failures.get(key) ?? 0) + 1;
      this.#failures.set(key, times);
      if (times >= this.#settings.repeatedFailures) repeated ??= outcome;
    }
    this.#idleTurns = progress ? 0 : this.#idleTurns + 1;
    if (repeated !== undefined) return this.#repeated(repeated, turn);
    if (this.#idleTurns >= this.#settings.idleTurns) return this.#idle(turn);
    return CONTINUE;
  }

  #repeated(outcome: ToolCallOutcome, turn: number): GovernorVerdict {
    const tool = outcome.call.name;
    const times = this.#failures.get(fingerprint(outcome)) ?? 0;
    if (this.#warned.has('repeated-failure')) {
      return this.#stop(
        'repeated-failure',
        turn,
        `The model called tool '${tool}' with the same arguments ${times} times and it failed the same way each time, ` +
          'after it was told to stop. Fix: make the tool’s failure message say what to change, ' +
          'or raise governor.repeatedFailures in evaluate() or installAffordance().',
        tool,
      );
    }
    const notice =
      `Your call to '${tool}' with these arguments has now failed ${times} times with the same error. ` +
      'Calling it the same way again will fail again. Change the arguments, use another tool, ' +
      'or answer with what you have. If you repeat this call once more, the evaluation stops.';
    return this.#warn('repeated-failure', turn, notice, tool);
  }

  #idle(turn: number): GovernorVerdict {
    const turns = this.#idleTurns;
    if (this.#warned.has('no-progress')) {
      return this.#stop(
        'no-progress',
        turn,
        `The model's tool calls changed nothing and returned nothing new for ${turns} turns in a row, ` +
          'after it was told so. Fix: give the model a clearer goal or stopping rule in the prompt, ' +
          'or raise governor.idleTurns in evaluate() or installAffordance().',
        undefined,
      );
    }
    const notice =
      `Your last ${turns} turns of tool calls changed nothing and returned nothing new. ` +
      'Answer now with what you have, or do something different. ' +
      'If the next turn makes no progress either, the evaluation stops.';
    return this.#warn('no-progress', turn, notice, undefined);
  }

  #warn(
    reason: LoopInterventionReason,
    turn: number,
    notice: string,
    tool: string | undefined,
  ): GovernorVerdict {
    this.#warned.add(reason);
    this.#record('warned', reason, turn, notice, tool);
    return { kind: 'warn', notice };
  }

  #stop(
    reason: 'repeated-failure' | 'no-progress',
    turn: number,
    message: string,
    tool: string | undefined,
  ): GovernorVerdict {
    const scope = this.#scope;
    const error = new LoopStoppedError(message, {
      reason,
      prompt: scope.prompt.label,
      tool,
      turns: turn + 1,
    });
    this.#record('stopped', reason, turn, error.message, tool);
    return { kind: 'stop', error };
  }

  #record(
    action: LoopInterventionAction,
    reason: LoopInterventionReason,
    turn: number,
    message: string,
    tool: string | undefined,
  ): void {
    const event = new LoopIntervention(
      Object.assign(evaluationEventFields(this.#scope), { action, reason, turn, message, tool }),
    );
    this.#scope.session.dispatch(event);
    this.#observer?.intervention?.(event);
  }
}

/**
 * A digest of the call's tool, arguments and what it answered (the failure or
 * the result text): a 53-bit hash of the three (two 32-bit multiply-xor lanes,
 * as cyrb53 mixes them), not a cryptographic one. The governor only counts
 * repeats within one evaluation and no one chooses the inputs to collide; two
 * different calls share a digest with a chance of about n² / 2⁵⁴ among n calls
 * (one in a hundred million for 10,000), and a collision at worst counts a
 * call as a repeat of another. SHA-256 cost about 2 µs per call here; this
 * costs what reading the text does, and keeps a number per call, not the text.
 */
function fingerprint(outcome: ToolCallOutcome): number {
  const lanes = [0xdeadbeef, 0x41c6ce57];
  mix(lanes, outcome.call.name);
  mix(lanes, '\u0000');
  mix(lanes, canonicalArguments(outcome.call.arguments));
  mix(lanes, '\u0000');
  mix(lanes, outcome.message);
  let [h1, h2] = lanes as [number, number];
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Folds `text`'s UTF-16 code units into the two hash lanes. */
function mix(lanes: number[], text: string): void {
  let h1 = lanes[0] as number;
  let h2 = lanes[1] as number;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ unit, 2654435761);
    h2 = Math.imul(h2 ^ unit, 1597334677);
  }
  lanes[0] = h1;
  lanes[1] = h2;
}

/**
 * The arguments as JSON with sorted keys, so the same arguments in another
 * order read alike. Never throws: arguments that cannot be read (a hostile
 * Proxy, a structure too deep) read as one marker.
 */
function canonicalArguments(value: unknown): string {
  try {
    const decoded = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
    // `undefined` (no arguments at all) stringifies to undefined, not to text.
    const text = JSON.stringify(decoded, sortedKeys) as string | undefined;
    return text ?? 'undefined';
  } catch {
    return typeof value === 'string' ? value : '[unreadable arguments]';
  }
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    sorted[key] = (value as Record<string, unknown>)[key];
  }
  return sorted;
}
