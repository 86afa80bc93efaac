import {
  checkAnswerSize,
  partsOfTurn,
  ProviderAdapter,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderStreamPart,
  type ProviderTurn,
  type ToolSpec,
  toolSpecOf,
} from '../../provider/index.js';
import { ConfigurationError, type ToolDefinition } from '../../index.js';
import { Cassette } from './cassette.js';
import type { CassetteInteraction, CassetteRequest } from './cassette-format.js';
import { CassetteMismatchError } from './cassette-mismatch-error.js';
import { CassetteRecorder } from './cassette-recorder.js';
import { type CassetteRedaction, CassetteRedactor } from './cassette-redactor.js';
import { cassetteKey, cassetteRequestOf } from './cassette-request.js';
import { providerTurnOf } from './cassette-turn.js';
import { requestDifferences } from './request-diff.js';

/**
 * How a {@link ReplayAdapter} treats its cassette: `replay` answers from it
 * alone and never calls a live adapter; `record-missing` replays what matches
 * and sends the rest to the live adapter, recording it; `record` sends
 * everything to the live adapter and records a new cassette.
 */
export type CassetteMode = 'replay' | 'record-missing' | 'record';

/** Options of a {@link ReplayAdapter}. */
export interface ReplayAdapterOptions extends CassetteRedaction {
  /** The cassette: a file path, or a {@link Cassette} in memory. */
  readonly cassette: string | Cassette;
  /** `replay` by default: offline, a request the cassette lacks fails with a `CassetteMismatchError`. */
  readonly mode?: CassetteMode;
  /** The adapter to record from; required by `record-missing` and `record`, never called by `replay`. */
  readonly live?: ProviderAdapter | undefined;
}

/**
 * Answers requests from a cassette a `RecordingAdapter` (or this adapter in a
 * recording mode) wrote, offline. A request matches a recorded one by a
 * stable hash of what decides the answer (the prompt, the messages, the tools
 * and their schemas, the tool choice, the output schema; not the evaluation
 * id, the turn number, the signal or the deadline); the same request sent
 * again replays its recordings in recorded order. Streaming replays the
 * recorded deltas. `name`, `model` and `capabilities` are the recorded adapter's.
 *
 * @example
 * const adapter = new ReplayAdapter({ cassette: 'test/cassettes/support-desk.json' });
 * await runtime.evaluate(prompt, { adapter });
 */
export class ReplayAdapter extends ProviderAdapter {
  override readonly name: string;
  override readonly capabilities: ProviderCapabilities;
  override readonly model?: string | undefined;
  /** The cassette's mode. */
  readonly mode: CassetteMode;
  readonly #cassette: Cassette;
  readonly #live: ProviderAdapter | undefined;
  readonly #redactor: CassetteRedactor;
  readonly #recorder: CassetteRecorder | undefined;
  /** The interactions already replayed (or recorded) by this adapter, by index. */
  readonly #used = new Set<number>();

  /**
   * @throws ConfigurationError when the cassette file is missing or unreadable
   * in `replay` mode, when a recording mode has no `live` adapter, or when
   * `record-missing` would mix another adapter's answers into the cassette.
   */
  constructor(options: ReplayAdapterOptions) {
    super();
    this.mode = options.mode ?? 'replay';
    this.#live = options.live;
    const path = typeof options.cassette === 'string' ? options.cassette : undefined;
    const source = path ?? 'in memory';
    const live = this.#live;
    if (this.mode !== 'replay' && live === undefined) {
      throw new ConfigurationError({
        subject: `ReplayAdapter (cassette '${source}')`,
        problem: `Mode '${this.mode}' records from a live adapter, and none was given.`,
        fix: "Pass `live` (e.g. new OpenAIAdapter(client, { model })), or use mode 'replay'.",
      });
    }
    this.#cassette = openCassette(options.cassette, this.mode, live);
    if (live !== undefined) checkSameAdapter(this.#cassette, live, this.mode);
    const recorded = this.#cassette.adapter;
    this.name = recorded.name;
    this.model = recorded.model;
    this.capabilities = Object.freeze({ ...recorded.capabilities });
    this.#redactor = new CassetteRedactor(options, live);
    this.#recorder =
      live === undefined
        ? undefined
        : new CassetteRecorder(live, this.#cassette, path, this.#redactor, (index) =>
            this.#used.add(index),
          );
  }

  /** The cassette answered from (and recorded into). */
  get cassette(): Cassette {
    return this.#cassette;
  }

  /** Writes the cassette file now (recording modes write it after every interaction anyway). */
  save(): Promise<void> {
    return this.#recorder?.save() ?? Promise.resolve();
  }

  override request(request: ProviderRequest): Promise<ProviderTurn> {
    try {
      const recorded = this.#next(request);
      if (recorded === 'record') return this.#recording().request(request);
      const turn = providerTurnOf(recorded.turn, this.#cassette.source);
      // A replayed answer over maxAnswerChars fails as the provider's would have.
      checkAnswerSize(turn, request);
      return Promise.resolve(turn);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  override async *stream(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderStreamPart, void, undefined> {
    const recorded = this.#next(request);
    if (recorded === 'record') {
      yield* this.#recording().stream(request);
      return;
    }
    const turn = providerTurnOf(recorded.turn, this.#cassette.source);
    const parts = recorded.parts ?? partsOfTurn(turn).filter((part) => part.type !== 'turn');
    for (const part of parts) {
      if (request.signal.aborted) {
        throw new Error('The replayed request was cancelled.', { cause: request.signal.reason });
      }
      yield { ...part };
    }
    yield { type: 'turn', turn };
  }

  /**
   * The live adapter's spec when there is one; otherwise the schema choice the
   * recording made for a tool of that name (an adapter may send some tools
   * non-strict, e.g. OpenAI's shell tool), else the recorded capabilities'.
   */
  override toolSpec(tool: ToolDefinition, descriptions?: ReadonlyMap<string, string>): ToolSpec {
    if (this.#live !== undefined) return this.#live.toolSpec(tool, descriptions);
    const strict = this.#recordedStrict().get(tool.name);
    const spec = super.toolSpec(tool, descriptions);
    return strict === undefined || strict === spec.strict
      ? spec
      : toolSpecOf(tool, strict, descriptions);
  }

  override validate(tools: readonly ToolDefinition[]): void {
    if (this.#live !== undefined) this.#live.validate(tools);
    else super.validate(tools);
  }

  /** What `JSON.stringify` shows: the name, model, mode and cassette, never a live client. */
  toJSON(): unknown {
    return { name: this.name, model: this.model, mode: this.mode, cassette: this.#cassette.source };
  }

  /** The recorded interaction answering `request`, `record` to send it live, or a mismatch thrown. */
  #next(request: ProviderRequest): CassetteInteraction | 'record' {
    if (this.mode === 'record') return 'record';
    const sent = cassetteRequestOf(request, this.#redactor);
    const key = cassetteKey(sent);
    const interactions = this.#cassette.interactions;
    const index = interactions.findIndex(
      (interaction, at) => interaction.key === key && !this.#used.has(at),
    );
    const found = interactions[index];
    if (found !== undefined) {
      this.#used.add(index);
      return found;
    }
    if (this.mode === 'record-missing') return 'record';
    throw this.#mismatch(sent, key);
  }

  /** Whether each recorded tool was sent strict, by name (the latest recording wins). */
  #recordedStrict(): Map<string, boolean> {
    const strict = new Map<string, boolean>();
    for (const interaction of this.#cassette.interactions) {
      for (const tool of interaction.request.tools) strict.set(tool.name, tool.strict);
    }
    return strict;
  }

  #recording(): CassetteRecorder {
    // The constructor refuses a recording mode without a live adapter.
    return this.#recorder as CassetteRecorder;
  }

  #mismatch(sent: CassetteRequest, key: string): CassetteMismatchError {
    const interactions = this.#cassette.interactions;
    const cassette = this.#cassette.source;
    const times = interactions.filter((interaction) => interaction.key === key).length;
    if (times > 0)
      return new CassetteMismatchError({ cassette, sent, differences: [], recordedTimes: times });
    let nearest: { index: number; request: CassetteRequest } | undefined;
    let differences: ReturnType<typeof requestDifferences> = [];
    interactions.forEach((interaction, index) => {
      const found = requestDifferences(interaction.request, sent);
      if (nearest === undefined || found.length < differences.length) {
        nearest = { index, request: interaction.request };
        differences = found;
      }
    });
    return new CassetteMismatchError({ cassette, sent, nearest, differences });
  }
}

/** The cassette of `cassette` for `mode`: read, new, or restarted. */
function openCassette(
  cassette: string | Cassette,
  mode: CassetteMode,
  live: ProviderAdapter | undefined,
): Cassette {
  if (mode === 'record' && live !== undefined) {
    if (typeof cassette === 'string') return Cassette.of(live, cassette);
    cassette.restart(live);
    return cassette;
  }
  if (typeof cassette !== 'string') return cassette;
  const read = Cassette.read(cassette);
  if (read !== undefined) return read;
  if (live !== undefined) return Cassette.of(live, cassette);
  throw new ConfigurationError({
    subject: `ReplayAdapter (cassette '${cassette}')`,
    problem: 'There is no cassette file at this path, and mode replay never calls a provider.',
    fix: "Record it once with mode 'record-missing' (or 'record') and a live adapter, and commit the file.",
  });
}

/** Refuses to add a different adapter's (or model's) answers to a cassette. */
function checkSameAdapter(cassette: Cassette, live: ProviderAdapter, mode: CassetteMode): void {
  const recorded = cassette.adapter;
  if (recorded.name === live.name && recorded.model === live.model) return;
  const name = (info: { name: string; model?: string | undefined }) =>
    info.model === undefined ? `'${info.name}'` : `'${info.name}' (model '${info.model}')`;
  throw new ConfigurationError({
    subject: `ReplayAdapter (cassette '${cassette.source}')`,
    problem: `The cassette was recorded from ${name(recorded)}, and mode '${mode}' would add answers of ${name(live)} to it.`,
    fix: "Record the whole cassette again with mode 'record', or pass the live adapter it was recorded from.",
  });
}
