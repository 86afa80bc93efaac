import { PromptEvent, type PromptEventInit } from './prompt-event.js';
import type { TokenUsage } from '../../provider/token-usage.js';
import { isClassInstance } from '../../core/is-class-instance.js';
import type { SessionEventTraits } from '../../session/session-event-traits.js';

/** What a {@link PromptExecuted} event needs of a prompt response (the runtime passes the whole response). */
export interface PromptExecutedResult<T = unknown> {
  /** The model's final text, if any. */
  readonly text: string | null;
  /** The parsed structured output, if the prompt declares one. */
  readonly output: T | null;
}

/** Fields of a {@link PromptExecuted} event. */
export interface PromptExecutedInit<T = unknown> extends PromptEventInit {
  /** The evaluation's response. */
  readonly result: PromptExecutedResult<T>;
  /** Token usage over the whole evaluation, if reported. */
  readonly usage?: TokenUsage | undefined;
  /** How long the evaluation took, in milliseconds. */
  readonly durationMs?: number | undefined;
  /** The provider that served the answering turn (`ProviderTurn.provider`, else the adapter's `name`). */
  readonly provider?: string | undefined;
  /** The model that gave the answer (`ProviderTurn.model`, else the adapter's `model`), if known. */
  readonly model?: string | undefined;
}

/**
 * Emitted once when an evaluation finishes with an answer. The session logs
 * it and routes a class-instance `output` (or each class instance in an
 * array output) to that value's own slice. Frozen.
 */
export class PromptExecuted<T = unknown> extends PromptEvent {
  /** Logged in its own slice; a structured output's class instances are also reduced into their slices. */
  static readonly sessionTraits: SessionEventTraits<PromptExecuted> = {
    logged: true,
    fanOut: (event) => {
      const output = event.result.output;
      if (isClassInstance(output)) return [output];
      return Array.isArray(output) ? output.filter(isClassInstance) : [];
    },
    contents: (event) => [event.createdAt, event.result, event.usage],
  };

  /** The evaluation's response. */
  readonly result: PromptExecutedResult<T>;
  /** Token usage over the whole evaluation, if reported. */
  readonly usage: TokenUsage | undefined;
  /** How long the evaluation took, in milliseconds, if measured. */
  readonly durationMs: number | undefined;
  /**
   * The provider that served the answering turn: differs from `adapter` when
   * a `FallbackAdapter` or `RoutingAdapter` answered through one of its members.
   */
  readonly provider: string | undefined;
  /** The model that gave the answer, as the provider reported it, if known. */
  readonly model: string | undefined;

  constructor(init: PromptExecutedInit<T>) {
    super(init);
    this.result = init.result;
    this.usage = init.usage;
    this.durationMs = init.durationMs;
    this.provider = init.provider;
    this.model = init.model;
    if (new.target === PromptExecuted) Object.freeze(this);
  }
}
