import type OpenAI from 'openai';
import type {
  ResponseCreateParamsNonStreaming,
  ResponseCreateParamsStreaming,
} from 'openai/resources/responses/responses';

import { type ProviderStreamPart, streamWithRetries } from '../../provider/index.js';
import { readResponsesTurn, type ResponsesTurnContext } from '../turn/read-responses-turn.js';
import { readOpenAIJson } from '../transport/read-openai-json.js';
import { ResponsesStreamReader } from './responses-stream-reader.js';
import type { StreamSetup } from './stream-setup.js';

/**
 * Streams one Responses API request: `POST /responses` with `stream: true`,
 * its SDK event stream iterated directly (events of types the SDK's own
 * accumulator does not know pass through, and are ignored unless they matter),
 * read by {@link ResponsesStreamReader}; retried as {@link streamWithRetries} says.
 */
export function streamResponses(
  client: OpenAI,
  body: ResponseCreateParamsNonStreaming,
  setup: StreamSetup<ResponsesTurnContext>,
): AsyncGenerator<ProviderStreamPart, void, undefined> {
  // A lone spread, then the field: the body may hold user keys from extraBody.
  const streaming: Record<string, unknown> = { ...body };
  streaming['stream'] = true;
  return streamWithRetries(
    {
      open: (signal) =>
        client.responses
          .create(
            streaming as unknown as ResponseCreateParamsStreaming,
            setup.requestOptions(signal),
          )
          .withResponse(),
      reader: () => new ResponsesStreamReader(setup.turn),
      readWhole: async (response) =>
        readResponsesTurn(
          await readOpenAIJson(response, {
            prompt: setup.send.prompt,
            api: setup.send.api,
            baseURL: client.baseURL,
            path: '/responses',
            maxAnswerChars: setup.maxAnswerChars,
          }),
          setup.turn,
        ),
    },
    setup.send,
  );
}
