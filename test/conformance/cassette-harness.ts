import {
  checkAnswerSize,
  ProviderAdapter,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderStreamPart,
  type ProviderTurn,
  type ToolSpec,
} from 'affordance/provider';
import {
  type AdapterHarness,
  Cassette,
  type FedBackToolResult,
  RecordingAdapter,
  ReplayAdapter,
} from 'affordance/testing';
import type { ToolDefinition } from 'affordance';

/*
 * Conformance of ReplayAdapter: each check runs twice. First against the
 * inner harness (a live provider), every adapter it opens wrapped in a
 * RecordingAdapter writing a cassette in memory; then against ReplayAdapters
 * answering from those cassettes, in the same order, with nothing live
 * behind them. Two things a cassette cannot hold are served apart:
 * - a request that hangs (the deadline and cancellation checks): the replay
 *   runs in mode 'record-missing' over an adapter that never answers, so the
 *   recorded turns replay and the request past them hangs, as it did live;
 * - an answer over maxAnswerChars: recorded whole (the limit left off the
 *   live request), so the ReplayAdapter itself must refuse it, as every
 *   adapter must.
 */

/** Records through `recording` with the answer limit left off, and applies the limit itself. */
class WholeAnswers extends ProviderAdapter {
  readonly name: string;
  readonly capabilities: ProviderCapabilities;

  constructor(private readonly recording: RecordingAdapter) {
    super();
    this.name = recording.name;
    this.capabilities = recording.capabilities;
  }

  async request(request: ProviderRequest): Promise<ProviderTurn> {
    const turn = await this.recording.request({ ...request, maxAnswerChars: undefined });
    checkAnswerSize(turn, request);
    return turn;
  }

  /** Records the whole stream first (the runtime would stop reading one over the limit), then yields it. */
  override async *stream(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderStreamPart, void, undefined> {
    const parts: ProviderStreamPart[] = [];
    for await (const part of this.recording.stream({ ...request, maxAnswerChars: undefined })) {
      parts.push(part);
    }
    yield* parts;
  }

  override toolSpec(tool: ToolDefinition, descriptions?: ReadonlyMap<string, string>): ToolSpec {
    return this.recording.toolSpec(tool, descriptions);
  }

  override validate(tools: readonly ToolDefinition[]): void {
    this.recording.validate(tools);
  }
}

/** A provider that never answers: each request waits until its signal aborts. */
class NeverAnswers extends ProviderAdapter {
  readonly name: string;
  override readonly model: string | undefined;
  readonly capabilities: ProviderCapabilities;

  constructor(cassette: Cassette) {
    super();
    this.name = cassette.adapter.name;
    this.model = cassette.adapter.model;
    this.capabilities = cassette.adapter.capabilities;
  }

  request(request: ProviderRequest): Promise<ProviderTurn> {
    const { signal } = request;
    return new Promise((_resolve, reject) => {
      const stop = () => {
        reject(new Error('The hanging request was given up.', { cause: signal.reason }));
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
  }
}

/** A ReplayAdapter noting every request it receives. */
class WatchedReplay extends ReplayAdapter {
  readonly requests: ProviderRequest[] = [];

  override request(request: ProviderRequest): Promise<ProviderTurn> {
    this.requests.push(request);
    return super.request(request);
  }

  override async *stream(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderStreamPart, void, undefined> {
    this.requests.push(request);
    yield* super.stream(request);
  }
}

/** The inner harness, each adapter it opens recorded into a cassette added to `cassettes`. */
export function recordingHarness(inner: AdapterHarness, cassettes: Cassette[]): AdapterHarness {
  return {
    name: `RecordingAdapter (over ${inner.name})`,
    async open(script, options) {
      const opened = await inner.open(script, options);
      const cassette = Cassette.of(opened.adapter);
      cassettes.push(cassette);
      const recording = new RecordingAdapter(opened.adapter, { cassette });
      return {
        adapter: new WholeAnswers(recording),
        requests: opened.requests,
        close: opened.close,
      };
    },
    toolResultsOf: inner.toolResultsOf,
  };
}

/** ReplayAdapters over `cassettes`, one per `open`, in the order they were recorded. */
export function replayHarness(name: string, cassettes: readonly Cassette[]): AdapterHarness {
  let opened = 0;
  return {
    name: `ReplayAdapter (recorded from ${name})`,
    open(_script, options = {}) {
      const cassette = cassettes[opened++];
      if (cassette === undefined)
        throw new Error('The check opened more adapters than were recorded.');
      const adapter = new WatchedReplay(
        options.hang === true
          ? { cassette, mode: 'record-missing', live: new NeverAnswers(cassette) }
          : { cassette },
      );
      return Promise.resolve({
        adapter,
        requests: () => adapter.requests,
        close: () => Promise.resolve(),
      });
    },
    toolResultsOf(request): FedBackToolResult[] {
      return (request as ProviderRequest).messages.flatMap((message) =>
        message.role === 'tool' ? [{ callId: message.callId, content: message.content }] : [],
      );
    },
  };
}
