import type OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';

import { PromptEvaluationError } from '../../index.js';
import {
  type ProviderStreamPart,
  type ProviderTurn,
  RetryableResponseError,
  type StreamReader,
  streamWithRetries,
} from '../../provider/index.js';
import { type ChatTurnContext, readChatTurn } from '../turn/read-chat-turn.js';
import { readOpenAIJson } from '../transport/read-openai-json.js';
import { ChatStreamAccumulator } from './chat-stream-accumulator.js';
import type { StreamSetup } from './stream-setup.js';

/**
 * Streams one Chat Completions request: `stream: true` with
 * `stream_options.include_usage`, the chunks gathered by
 * {@link ChatStreamAccumulator} into a completion read with
 * {@link readChatTurn}, exactly as a whole completion is; retried as
 * {@link streamWithRetries} says.
 */
export function streamChat(
  client: OpenAI,
  body: ChatCompletionCreateParamsNonStreaming,
  setup: StreamSetup<ChatTurnContext>,
): AsyncGenerator<ProviderStreamPart, void, undefined> {
  // A lone spread, then the fields: the body may hold user keys from extraBody.
  const streaming: Record<string, unknown> = { ...body };
  streaming['stream'] = true;
  streaming['stream_options'] = { include_usage: true };
  return streamWithRetries(
    {
      open: (signal) =>
        client.chat.completions
          .create(
            streaming as unknown as ChatCompletionCreateParamsStreaming,
            setup.requestOptions(signal),
          )
          .withResponse(),
      reader: () => new ChatStreamReader(setup.turn),
      readWhole: async (response) =>
        readChatTurn(
          await readOpenAIJson(response, {
            prompt: setup.send.prompt,
            api: setup.send.api,
            baseURL: client.baseURL,
            path: '/chat/completions',
            maxAnswerChars: setup.maxAnswerChars,
          }),
          setup.turn,
        ),
    },
    setup.send,
  );
}

/** Gathers the chunks; at the end, reads the completion they add up to. */
class ChatStreamReader implements StreamReader {
  readonly #context: ChatTurnContext;
  readonly #chunks = new ChatStreamAccumulator();

  constructor(context: ChatTurnContext) {
    this.#context = context;
  }

  /** The parts one chunk gives. */
  read(chunk: unknown): readonly ProviderStreamPart[] {
    return this.#chunks.add(chunk);
  }

  /** Errors of the event iterator (an error chunk, a dropped connection) are thrown as they are. */
  readError(thrown: unknown): unknown {
    return thrown;
  }

  /** The completion the chunks add up to, read as a whole one; without a finish reason it is incomplete. */
  end(): ProviderTurn {
    if (this.#chunks.finished) return readChatTurn(this.#chunks.completion(), this.#context);
    const final = new PromptEvaluationError(
      `The OpenAI Chat Completions stream ended after ${this.#chunks.count} chunk(s) without a ` +
        'finish_reason, so the answer is incomplete. Fix: run the evaluation again; if it keeps ' +
        'happening, check that the client baseURL is a Chat Completions endpoint and that no proxy ' +
        'cuts the stream.',
      {
        phase: 'response',
        prompt: this.#context.prompt,
        providerPayload: this.#chunks.completion(),
      },
    );
    throw new RetryableResponseError('stream ended early', final);
  }
}
