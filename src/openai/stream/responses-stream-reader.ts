import { APIConnectionError, APIError, APIUserAbortError } from 'openai';

import { PromptEvaluationError } from '../../index.js';
import {
  type ProviderStreamPart,
  type ProviderTurn,
  RetryableResponseError,
  type StreamReader,
} from '../../provider/index.js';
import { isItem, type Item } from '../turn/read-output-items.js';
import { readResponsesTurn, type ResponsesTurnContext } from '../turn/read-responses-turn.js';

/** A function call being streamed: its call id and the arguments delivered so far. */
interface CallDraft {
  readonly callId: string;
  sent: string;
}

const none: readonly ProviderStreamPart[] = [];

/**
 * Reads Responses API stream events into parts: `response.output_text.delta`
 * as text (a `\n\n` before the first delta of each further message, as the
 * turn joins messages; a `.done` event whose whole text goes on past the
 * deltas gives the rest), `response.reasoning_summary_text.delta` as reasoning,
 * a `function_call` output item as a tool call start and
 * `response.function_call_arguments.delta` as its arguments. The terminal
 * event (`response.completed`, `response.incomplete`, `response.failed`)
 * is read with {@link readResponsesTurn}, exactly as a whole response is.
 * Other events (refusal deltas, hosted tool progress, shell and patch
 * deltas, types added later) add no part; their content reaches the turn.
 */
export class ResponsesStreamReader implements StreamReader {
  readonly #context: ResponsesTurnContext;
  /** Function calls by output item id. */
  readonly #calls = new Map<string, CallDraft>();
  /** The message item the last text delta belonged to. */
  #textItem: string | undefined;
  /** The text delivered so far, by message item and content index. */
  readonly #texts = new Map<string, string>();
  /** The latest `response` the stream showed before its end. */
  #snapshot: Item | undefined;
  #turn: ProviderTurn | undefined;
  #events = 0;

  constructor(context: ResponsesTurnContext) {
    this.#context = context;
  }

  /** The parts one event gives; the terminal event is read into the turn (or throws as `request()` would). */
  read(event: unknown): readonly ProviderStreamPart[] {
    if (this.#turn !== undefined || !isItem(event)) return none;
    this.#events += 1;
    switch (event['type']) {
      case 'response.output_text.delta':
        return this.#text(event['item_id'], event['content_index'], event['delta']);
      case 'response.output_text.done':
        return this.#textDone(event['item_id'], event['content_index'], event['text']);
      case 'response.reasoning_summary_text.delta':
        return typeof event['delta'] === 'string' && event['delta'] !== ''
          ? [{ type: 'reasoning-delta', delta: event['delta'] }]
          : none;
      case 'response.output_item.added':
        return this.#itemAdded(event['item']);
      case 'response.function_call_arguments.delta':
        return this.#arguments(event['item_id'], event['delta']);
      case 'response.function_call_arguments.done':
        return this.#argumentsDone(event['item_id'], event['arguments']);
      case 'response.output_item.done':
        return isItem(event['item']) && event['item']['type'] === 'function_call'
          ? this.#argumentsDone(event['item']['id'], event['item']['arguments'])
          : none;
      case 'response.created':
      case 'response.queued':
      case 'response.in_progress':
        if (isItem(event['response'])) this.#snapshot = event['response'];
        return none;
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        this.#turn = readResponsesTurn(event['response'], this.#context);
        return none;
      default:
        return none;
    }
  }

  /**
   * An `error` event, which the SDK throws before the `response.failed` that
   * follows it, is read as that failed response: the same error (or retry)
   * as a whole `failed` response gives.
   */
  readError(thrown: unknown): unknown {
    if (
      !(thrown instanceof APIError) ||
      thrown instanceof APIConnectionError ||
      thrown instanceof APIUserAbortError ||
      thrown.status !== undefined ||
      !isItem(thrown.error)
    ) {
      return thrown;
    }
    const failed: Record<string, unknown> = { ...this.#snapshot };
    failed['status'] = 'failed';
    failed['error'] = thrown.error;
    if (!Array.isArray(failed['output'])) failed['output'] = [];
    try {
      readResponsesTurn(failed, this.#context);
    } catch (error) {
      return error;
    }
    return thrown;
  }

  /** The turn of the terminal event; a stream that ended without one is retryable while nothing was yielded. */
  end(): ProviderTurn {
    if (this.#turn !== undefined) return this.#turn;
    const final = new PromptEvaluationError(
      `The OpenAI Responses stream ended after ${this.#events} event(s) without a ` +
        'response.completed, response.incomplete or response.failed event, so the answer is incomplete. ' +
        'Fix: run the evaluation again; if it keeps happening, check that the client baseURL is an ' +
        'OpenAI Responses endpoint and that no proxy cuts the stream.',
      { phase: 'response', prompt: this.#context.prompt, providerPayload: this.#snapshot },
    );
    throw new RetryableResponseError('stream ended early', final);
  }

  #text(itemId: unknown, index: unknown, delta: unknown): readonly ProviderStreamPart[] {
    if (typeof delta !== 'string' || delta === '') return none;
    const item = String(itemId);
    const key = `${item}:${String(index)}`;
    this.#texts.set(key, (this.#texts.get(key) ?? '') + delta);
    const separator = this.#textItem !== undefined && this.#textItem !== item ? '\n\n' : '';
    this.#textItem = item;
    return [{ type: 'text-delta', delta: separator + delta }];
  }

  /** The part of a text part's whole text not delivered as deltas yet, if it continues what was. */
  #textDone(itemId: unknown, index: unknown, whole: unknown): readonly ProviderStreamPart[] {
    const sent = this.#texts.get(`${String(itemId)}:${String(index)}`) ?? '';
    if (typeof whole !== 'string' || !whole.startsWith(sent)) return none;
    return this.#text(itemId, index, whole.slice(sent.length));
  }

  #itemAdded(item: unknown): readonly ProviderStreamPart[] {
    if (!isItem(item) || item['type'] !== 'function_call') return none;
    // The same call id the turn gives the call (see readOutputItem).
    const callId = String(item['call_id'] ?? item['id']);
    this.#calls.set(String(item['id']), { callId, sent: '' });
    const start: ProviderStreamPart = {
      type: 'tool-call-start',
      callId,
      name: String(item['name']),
    };
    return [start, ...this.#argumentsDone(item['id'], item['arguments'])];
  }

  #arguments(itemId: unknown, delta: unknown): readonly ProviderStreamPart[] {
    const call = this.#calls.get(String(itemId));
    if (call === undefined || typeof delta !== 'string' || delta === '') return none;
    call.sent += delta;
    return [{ type: 'tool-arguments-delta', callId: call.callId, delta }];
  }

  /** The part of a call's whole arguments not delivered as deltas yet, if they continue what was. */
  #argumentsDone(itemId: unknown, whole: unknown): readonly ProviderStreamPart[] {
    const call = this.#calls.get(String(itemId));
    if (call === undefined || typeof whole !== 'string' || !whole.startsWith(call.sent))
      return none;
    return this.#arguments(itemId, whole.slice(call.sent.length));
  }
}
