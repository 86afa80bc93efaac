import {
  ProviderAdapter,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderStreamPart,
  type ProviderTurn,
  type ToolSpec,
} from '../../provider/index.js';
import type { ToolDefinition } from '../../index.js';
import { Cassette } from './cassette.js';
import { CassetteRecorder } from './cassette-recorder.js';
import { type CassetteRedaction, CassetteRedactor } from './cassette-redactor.js';

/** Options of a {@link RecordingAdapter}. */
export interface RecordingAdapterOptions extends CassetteRedaction {
  /**
   * Where to record: a file path (a new cassette replaces the file, written
   * after every interaction), or a {@link Cassette} in memory to add to.
   */
  readonly cassette: string | Cassette;
}

/**
 * Wraps any adapter and records each request it serves, with the turn it got
 * (a stream's deltas included, in order), into a cassette a `ReplayAdapter`
 * answers from offline. Answers pass through unchanged; what is written is
 * redacted first (API keys and bearer tokens by the adapters' `SecretRedactor`,
 * the wrapped adapter's client keys, the `secrets` and `redact` options).
 *
 * @example
 * const adapter = new RecordingAdapter(new OpenAIAdapter(client, { model: 'gpt-5-mini' }), {
 *   cassette: 'test/cassettes/support-desk.json',
 * });
 */
export class RecordingAdapter extends ProviderAdapter {
  override readonly name: string;
  override readonly capabilities: ProviderCapabilities;
  override readonly model?: string | undefined;
  readonly #recorder: CassetteRecorder;

  constructor(live: ProviderAdapter, options: RecordingAdapterOptions) {
    super();
    this.name = live.name;
    this.capabilities = live.capabilities;
    this.model = live.model;
    const path = typeof options.cassette === 'string' ? options.cassette : undefined;
    const cassette =
      typeof options.cassette === 'string' ? Cassette.of(live, options.cassette) : options.cassette;
    this.#recorder = new CassetteRecorder(
      live,
      cassette,
      path,
      new CassetteRedactor(options, live),
    );
  }

  /** The cassette being recorded. */
  get cassette(): Cassette {
    return this.#recorder.cassette;
  }

  /** Writes the cassette file now (it is also written after every interaction); a no-op in memory. */
  save(): Promise<void> {
    return this.#recorder.save();
  }

  override request(request: ProviderRequest): Promise<ProviderTurn> {
    return this.#recorder.request(request);
  }

  override stream(request: ProviderRequest): AsyncGenerator<ProviderStreamPart, void, undefined> {
    return this.#recorder.stream(request);
  }

  override toolSpec(tool: ToolDefinition, descriptions?: ReadonlyMap<string, string>): ToolSpec {
    return this.#recorder.live.toolSpec(tool, descriptions);
  }

  override validate(tools: readonly ToolDefinition[]): void {
    this.#recorder.live.validate(tools);
  }

  /** What `JSON.stringify` shows: the name, model and cassette, never the wrapped client. */
  toJSON(): unknown {
    return { name: this.name, model: this.model, cassette: this.cassette.source };
  }
}
