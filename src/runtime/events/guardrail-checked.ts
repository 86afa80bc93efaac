import type { SessionEventTraits } from '../../session/session-event-traits.js';
import { PromptEvent, type PromptEventInit } from './prompt-event.js';

/** Fields of a {@link GuardrailChecked} event. */
export interface GuardrailCheckedInit extends PromptEventInit {
  /** `input` or `answer`. */
  readonly stage: 'input' | 'answer';
  /** The policy's name. */
  readonly policy: string;
  /** What it decided: `allow`, `refuse`, `rewrite` (input), `retry`, `fail` (answer). */
  readonly verdict: 'allow' | 'refuse' | 'rewrite' | 'retry' | 'fail';
  /** The refusal's message or the retry's or failure's reason. */
  readonly reason?: string | undefined;
  /** For an answer: 1 for the first answer, 2 after one retry, ... */
  readonly attempt?: number | undefined;
}

/** Recorded each time an input or answer guardrail decides. Logged in its own slice; frozen. */
export class GuardrailChecked extends PromptEvent {
  /** Logged in its own slice. */
  static readonly sessionTraits: SessionEventTraits<GuardrailChecked> = {
    logged: true,
    contents: (event) => [event.createdAt],
  };

  /** `input` or `answer`. */
  readonly stage: 'input' | 'answer';
  /** The policy's name. */
  readonly policy: string;
  /** What it decided. */
  readonly verdict: GuardrailCheckedInit['verdict'];
  /** The message or reason, if any. */
  readonly reason: string | undefined;
  /** The answer attempt, for an answer guardrail. */
  readonly attempt: number | undefined;

  constructor(init: GuardrailCheckedInit) {
    super(init);
    this.stage = init.stage;
    this.policy = init.policy;
    this.verdict = init.verdict;
    this.reason = init.reason;
    this.attempt = init.attempt;
    if (new.target === GuardrailChecked) Object.freeze(this);
  }
}
