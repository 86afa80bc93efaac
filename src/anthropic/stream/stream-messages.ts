import type Anthropic from '@anthropic-ai/sdk';
import type {
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
} from '@anthropic-ai/sdk/resources/messages';

import {
  partsOfTurn,
  type ProviderStreamPart,
  type RetryContext,
  streamWithRetries,
} from '../../provider/index.js';
import { continuedBody, isPaused, mergeMessages } from '../turn/pause-turn.js';
import { type MessagesTurnContext, readMessagesTurn } from '../turn/read-messages-turn.js';
import { MessagesStreamReader } from './messages-stream-reader.js';

/** What a streamed request needs from the adapter besides its body. */
export interface MessagesStreamSetup {
  /** Retries, deadline, cancellation and key redaction, as for `request()`. */
  readonly send: RetryContext;
  /** The SDK options of one attempt: its signal, the SDK's retries off, the timeout. */
  readonly requestOptions: (signal: AbortSignal) => {
    signal?: AbortSignal;
    maxRetries: number;
    timeout: number;
  };
  /** Reads a whole JSON body, from a server that ignored `stream: true`. */
  readonly readJson: (response: Response) => Promise<unknown>;
  /** What reading the turn needs, as for `request()`. */
  readonly turn: MessagesTurnContext;
  /** How many `pause_turn`s are continued. */
  readonly maxPauses: number;
}

/**
 * Streams one Messages API request: `messages.create({ ...body, stream: true })`,
 * its raw events read by {@link MessagesStreamReader} (the SDK's
 * `messages.stream()` helper is not used), retried as `streamWithRetries`
 * says. A `pause_turn` is continued with a further streamed request (retried
 * again until its own first part). The final turn is read from the
 * accumulated message by `readMessagesTurn`, exactly as `request()` reads it.
 */
export async function* streamMessages(
  client: Anthropic,
  body: MessageCreateParamsNonStreaming,
  setup: MessagesStreamSetup,
): AsyncGenerator<ProviderStreamPart, void, undefined> {
  let current = body;
  let merged: unknown;
  let delivered = false;
  for (let pauses = 0; ; pauses++) {
    let segment: unknown;
    for await (const part of streamWithRetries(source(client, current, setup), setup.send)) {
      if (part.type === 'turn') {
        segment = part.turn.raw;
      } else {
        delivered = true;
        yield part;
      }
    }
    merged = mergeMessages(merged, segment);
    if (!isPaused(segment) || pauses >= setup.maxPauses) break;
    current = continuedBody(body, merged);
  }
  const turn = readMessagesTurn(merged, setup.turn);
  if (delivered) yield { type: 'turn', turn };
  else yield* partsOfTurn(turn);
}

function source(
  client: Anthropic,
  body: MessageCreateParamsNonStreaming,
  setup: MessagesStreamSetup,
): Parameters<typeof streamWithRetries>[0] {
  // A lone spread, then the field: the body may hold user keys from extraBody.
  const streaming: Record<string, unknown> = { ...body };
  streaming['stream'] = true;
  return {
    open: (signal) =>
      client.messages
        .create(streaming as unknown as MessageCreateParamsStreaming, setup.requestOptions(signal))
        .withResponse(),
    reader: () => new MessagesStreamReader(setup.send.prompt, setup.turn.outputTool),
    readWhole: async (response) => ({ raw: await setup.readJson(response) }),
  };
}
