import { Injectable } from '@nestjs/common';

import {
  type EvaluationInterruption,
  type EvaluationState,
  EvaluationStateStore,
  type Prompt,
  type Session,
} from 'affordance';

/** What a paused evaluation needs besides its saved state: the prompt, and the session it records in. */
export interface PausedEvaluation {
  readonly prompt: Prompt;
  /** The very session the evaluation ran with: resuming checks its id and version. */
  readonly session: Session;
  /** The customer's message that started it (for the chat log). */
  readonly message: string;
}

/** A paused evaluation taken out of the store to be resumed. */
export interface ClaimedEvaluation {
  readonly state: EvaluationState;
  readonly paused: PausedEvaluation;
}

/**
 * Evaluations waiting for a person's approval. Each state goes to the
 * `EvaluationStateStore` the affordance module provides (plain JSON, handed
 * out once by `take`); its `Session` object stays here, in memory, under the
 * same state id, because resuming needs the session the evaluation ran with
 * (durable sessions would let both live in a database). A Nest singleton.
 */
@Injectable()
export class PendingApprovals {
  readonly #paused = new Map<string, PausedEvaluation>();

  constructor(private readonly states: EvaluationStateStore) {}

  /** Saves the paused evaluation and returns the id to resume it by. */
  async hold(
    interruption: EvaluationInterruption,
    prompt: Prompt,
    message: string,
  ): Promise<string> {
    const stateId = await this.states.save(interruption.state);
    this.#paused.set(stateId, { prompt, session: interruption.session, message });
    return stateId;
  }

  /**
   * Takes the state saved under `stateId` out of the store, for `prompt`;
   * `undefined` when none waits there: unknown, already taken (resumed, or
   * being resumed), or another prompt's.
   */
  async claim(stateId: string, prompt: Prompt): Promise<ClaimedEvaluation | undefined> {
    const paused = this.#paused.get(stateId);
    if (paused?.prompt !== prompt) return undefined;
    const state = await this.states.take(stateId);
    return state === undefined ? undefined : { state, paused };
  }

  /** Puts back a claimed state the runtime refused to resume (nothing ran), so a corrected request can claim it. */
  async giveBack(state: EvaluationState): Promise<void> {
    await this.states.save(state);
  }

  /** Forgets a state that was resumed: it ran, so it can never be resumed again. */
  settle(stateId: string): void {
    this.#paused.delete(stateId);
  }
}
