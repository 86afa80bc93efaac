import type { MediaRef } from '../../content/content-part.js';
import { refsOf } from './prompt-rendered.js';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { ToolResult } from '../../tools/tool-result.js';
import { PromptEvent, type PromptEventInit } from './prompt-event.js';
import type { TokenUsage } from '../../provider/token-usage.js';
import { isClassInstance } from '../../core/is-class-instance.js';
import type { SessionEventTraits } from '../../session/session-event-traits.js';
import type { ToolAttempt } from '../../tools/tool-retry.js';

const NO_ATTEMPTS: readonly ToolAttempt[] = Object.freeze([]);

/** What each failed call's handler threw, by record: kept beside the record, never stored nor sent. */
const thrownValues = new WeakMap<object, { readonly value: unknown }>();

/** Notes what the handler of `event`'s call threw. @internal */
export function rememberThrown(event: ToolInvoked, value: unknown): void {
  thrownValues.set(event, { value });
}

/**
 * How a tool call ended: `success` and `failure` follow the result; `unknown`
 * marks a call interrupted before it could finish (e.g. by the deadline);
 * `denied` a call a policy refused or a person rejected (its handler never ran);
 * `timeout` a call stopped at its tool's `timeoutMs` (rolled back; the evaluation goes on).
 */
export type ToolOutcome = 'success' | 'failure' | 'unknown' | 'denied' | 'timeout';

/** Fields of a {@link ToolInvoked} event. */
export interface ToolInvokedInit<P = unknown, R = unknown> extends PromptEventInit {
  /** The tool's name. */
  readonly name: string;
  /** The provider's id for this call, if it gave one. */
  readonly callId?: string | undefined;
  /** The parsed params instance; `undefined` when parsing failed or the tool takes none. */
  readonly params?: P | undefined;
  /** The arguments exactly as the provider sent them (the rejected input when parsing failed). */
  readonly rawArguments?: unknown;
  /** What the call produced. */
  readonly result: ToolResult<R>;
  /** The tool message rendered from the result (see {@link ToolInvoked.renderedMessage}). */
  readonly renderedMessage?: string | undefined;
  /** Whether the provider executed the tool itself (a native tool). Defaults to `false`. */
  readonly native?: boolean | undefined;
  /** How the call ended; defaults to the result's success or failure. */
  readonly outcome?: ToolOutcome | undefined;
  /** How long the call took, in milliseconds. */
  readonly durationMs?: number | undefined;
  /** Token usage attributed to the call, if known. */
  readonly usage?: TokenUsage | undefined;
  /** Each attempt of a call of a tool with `retry`, in order. Defaults to none. */
  readonly attempts?: readonly ToolAttempt[] | undefined;
  /**
   * For a native call: the provider's type of the tool (`web_search`,
   * `code_interpreter`, ...), from the prompt's `NativeTool` of that name, or
   * the name the provider reported when none matches. The provider itself is
   * the event's `adapter`.
   */
  readonly nativeType?: string | undefined;
}

/**
 * Emitted exactly once per provider tool call, whatever its outcome, with the
 * tool message the provider saw. The session logs it and, on success, routes a
 * class-instance `result.value` to that value's own slice. Frozen.
 */
export class ToolInvoked<P = unknown, R = unknown> extends PromptEvent {
  /** Logged in its own slice; a successful call's class-instance value is also reduced into that class's slice. */
  static readonly sessionTraits: SessionEventTraits<ToolInvoked> = {
    logged: true,
    fanOut: (event) =>
      event.outcome === 'success' && isClassInstance(event.result.value)
        ? [event.result.value]
        : [],
    // Every object a ToolInvoked holds besides its createdAt (frozen when the event is built); the
    // rest are primitives (strings, numbers, booleans). A ToolResult is frozen when built, so only
    // its fields are walked (reading their values costs less than reading a descriptor per field).
    contents: (event) => {
      const { result } = event;
      return Object.isFrozen(result) && result.constructor === ToolResult
        ? [
            event.params,
            event.rawArguments,
            result.message,
            result.value,
            result.success,
            result.excludeValueFromContext,
            event.usage,
            event.attempts,
            event.media,
          ]
        : [event.params, event.rawArguments, result, event.usage, event.attempts, event.media];
    },
  };

  /** The tool's name. */
  readonly name: string;
  /** The provider's id for this call, if any. */
  readonly callId: string | undefined;
  /** The parsed params instance, or `undefined` when parsing failed. */
  readonly params: P | undefined;
  /** The arguments exactly as the provider sent them. */
  readonly rawArguments: unknown;
  /** What the call produced. */
  readonly result: ToolResult<R>;
  /**
   * The tool message rendered from the result the handler returned (defaults to
   * `result.toModelText()`). The provider receives exactly this text, unless a
   * reducer or subscriber fails on this very event: the model then reads
   * "Reducer errors prevented applying tool result: …" instead, as the
   * evaluation's `toolCalls` (each call's `message`) show.
   */
  readonly renderedMessage: string;
  /** Whether the provider executed the tool itself. */
  readonly native: boolean;
  /** How the call ended. */
  readonly outcome: ToolOutcome;
  /** How long the call took, in milliseconds, if measured. */
  readonly durationMs: number | undefined;
  /** Token usage attributed to the call, if known. */
  readonly usage: TokenUsage | undefined;
  /** Each attempt of a call of a tool with `retry`, in order; empty for other calls. */
  readonly attempts: readonly ToolAttempt[];
  /** For a native call, the provider's type of the tool (see {@link ToolInvokedInit.nativeType}). */
  readonly nativeType: string | undefined;
  /**
   * The media the result showed the model, by reference (hash, media type,
   * size): what a store records. The bytes live in the runtime's `BlobStore`,
   * written before this event; `result.parts` holds the same parts in this process.
   */
  readonly media: readonly MediaRef[];

  /**
   * What the handler of a failed call threw, as it threw it (an `Error` with
   * its stack), for logs and traces; `undefined` for any other call. The model
   * only reads the failure's message. Kept in this process only: it is not
   * part of the record a session stores (a record loaded from a store, or
   * restored, has none).
   */
  static thrownBy(event: ToolInvoked): unknown {
    return thrownValues.get(event)?.value;
  }

  constructor(init: ToolInvokedInit<P, R>) {
    super(init);
    if (!(init.result instanceof ToolResult)) {
      throw new ConfigurationError({
        subject: `ToolInvoked '${init.name}'`,
        problem: 'result must be a ToolResult.',
        fix: 'Wrap what the call produced with ToolResult.ok(value) or ToolResult.error(message).',
      });
    }
    const outcome = init.outcome ?? (init.result.success ? 'success' : 'failure');
    if (outcome !== 'unknown' && (outcome === 'success') !== init.result.success) {
      // 'denied' and 'failure' both need a failed result.
      throw new ConfigurationError({
        subject: `ToolInvoked '${init.name}'`,
        problem: `outcome '${outcome}' contradicts result.success (${init.result.success}).`,
        fix: "Leave outcome out to derive it from the result, pass 'unknown' for an interrupted call, or 'denied' or 'timeout' (with a failed result) for a refused or timed-out one.",
      });
    }
    if (
      init.durationMs !== undefined &&
      !(Number.isFinite(init.durationMs) && init.durationMs >= 0)
    ) {
      throw new ConfigurationError({
        subject: `ToolInvoked '${init.name}'.durationMs`,
        problem: `must be a non-negative number, got ${String(init.durationMs)}.`,
        fix: 'Pass the elapsed milliseconds, or leave durationMs out.',
      });
    }
    this.name = init.name;
    this.callId = init.callId;
    this.params = init.params;
    this.rawArguments = init.rawArguments;
    this.result = init.result;
    this.renderedMessage = init.renderedMessage ?? init.result.toModelText();
    this.native = init.native ?? false;
    this.outcome = outcome;
    this.durationMs = init.durationMs;
    this.usage = init.usage;
    this.attempts = init.attempts ?? NO_ATTEMPTS;
    this.nativeType = init.nativeType;
    this.media = refsOf(init.result.parts);
    if (new.target === ToolInvoked) Object.freeze(this);
  }
}
