import type { SessionEventTraits } from '../../session/session-event-traits.js';
import { PromptEvent, type PromptEventInit } from './prompt-event.js';

/**
 * What the loop governor did: `warned` the model (once per reason), `stopped`
 * the evaluation (a `LoopStoppedError` follows), or sent the `last-turn`
 * notice with the last request `maxTurns` allows.
 */
export type LoopInterventionAction = 'warned' | 'stopped' | 'last-turn';

/** Why the governor intervened. */
export type LoopInterventionReason = 'repeated-failure' | 'no-progress' | 'last-turn';

/** Fields of a {@link LoopIntervention} event. */
export interface LoopInterventionInit extends PromptEventInit {
  /** What the governor did. */
  readonly action: LoopInterventionAction;
  /** Why. */
  readonly reason: LoopInterventionReason;
  /** The turn (0 first) after which (or, for `last-turn`, in which) it intervened. */
  readonly turn: number;
  /** The text the model was sent (`warned`, `last-turn`) or the stop's message (`stopped`). */
  readonly message: string;
  /** The tool whose call kept failing (`repeated-failure`). */
  readonly tool?: string | undefined;
}

/** Recorded each time the loop governor intervenes in an evaluation. Logged in its own slice; frozen. */
export class LoopIntervention extends PromptEvent {
  /** Logged in its own slice. */
  static readonly sessionTraits: SessionEventTraits<LoopIntervention> = {
    logged: true,
    contents: (event) => [event.createdAt],
  };

  /** What the governor did. */
  readonly action: LoopInterventionAction;
  /** Why. */
  readonly reason: LoopInterventionReason;
  /** The turn (0 first). */
  readonly turn: number;
  /** What the model was sent, or the stop's message. */
  readonly message: string;
  /** The tool whose call kept failing, for `repeated-failure`. */
  readonly tool: string | undefined;

  constructor(init: LoopInterventionInit) {
    super(init);
    this.action = init.action;
    this.reason = init.reason;
    this.turn = init.turn;
    this.message = init.message;
    this.tool = init.tool;
    if (new.target === LoopIntervention) Object.freeze(this);
  }
}
