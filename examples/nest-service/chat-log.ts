import { Injectable } from '@nestjs/common';

import type { StreamEnding } from './observe-stream.js';

/** One chat the server ran, as recorded once it was over. */
export interface ChatRecord {
  /** The customer's message. */
  readonly message: string;
  /**
   * How it ended; `paused` when calls wait for approval (its resumption is
   * recorded as another record of the same message), `cancelled` when the
   * client left (or pressed Cancel) first.
   */
  readonly ending: StreamEnding;
  /**
   * Every tool call the session recorded so far, with its outcome (`unknown`
   * for an interrupted call, `denied` for one a person rejected).
   */
  readonly toolCalls: readonly { readonly tool: string; readonly outcome: string }[];
  /** Whether the session recorded `PromptExecuted`, i.e. the evaluation finished with an answer. */
  readonly executed: boolean;
}

/** The chats this server ran, oldest first (a Nest singleton, in memory). */
@Injectable()
export class ChatLog {
  readonly #records: ChatRecord[] = [];

  /** Adds `record`. */
  add(record: ChatRecord): void {
    this.#records.push(record);
  }

  /** Every record, oldest first. */
  all(): readonly ChatRecord[] {
    return [...this.#records];
  }
}
