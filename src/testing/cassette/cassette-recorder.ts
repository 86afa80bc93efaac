import type {
  ProviderAdapter,
  ProviderRequest,
  ProviderStreamPart,
  ProviderTurn,
} from '../../provider/index.js';
import type { Cassette } from './cassette.js';
import type { CassetteInteraction, CassetteStreamPart } from './cassette-format.js';
import type { CassetteRedactor } from './cassette-redactor.js';
import { cassetteKey, cassetteRequestOf } from './cassette-request.js';
import { cassettePartOf, cassetteTurnOf } from './cassette-turn.js';
import { redactParts } from './redact-parts.js';

/**
 * Sends requests to a live adapter and adds each request with the turn it
 * got (and a stream's deltas, in order) to a cassette, redacted, writing the
 * file after each one. A request that fails, or a stream left before its
 * turn, records nothing.
 */
export class CassetteRecorder {
  #writing: Promise<void> = Promise.resolve();

  constructor(
    readonly live: ProviderAdapter,
    readonly cassette: Cassette,
    readonly path: string | undefined,
    readonly redactor: CassetteRedactor,
    /** Told the index of each interaction added. */
    private readonly added: (index: number) => void = () => undefined,
  ) {}

  /** Sends `request` to the live adapter and records its answer. */
  async request(request: ProviderRequest): Promise<ProviderTurn> {
    const sent = cassetteRequestOf(request, this.redactor);
    const turn = await this.live.request(request);
    await this.#add({
      key: cassetteKey(sent),
      request: sent,
      turn: this.redactor.json(cassetteTurnOf(turn)),
    });
    return turn;
  }

  /** Streams `request` from the live adapter and records its deltas and turn, yielding each part as it arrives. */
  async *stream(request: ProviderRequest): AsyncGenerator<ProviderStreamPart, void, undefined> {
    const sent = cassetteRequestOf(request, this.redactor);
    const parts: CassetteStreamPart[] = [];
    for await (const part of this.live.stream(request)) {
      if (part.type === 'turn') {
        await this.#add({
          key: cassetteKey(sent),
          request: sent,
          turn: this.redactor.json(cassetteTurnOf(part.turn)),
          parts: redactParts(parts, this.redactor.scrubber()),
        });
      } else {
        parts.push(cassettePartOf(part));
      }
      yield part;
    }
  }

  /** Writes the cassette file (when recording to a path), after any write under way. */
  save(): Promise<void> {
    const path = this.path;
    if (path === undefined) return this.#writing;
    const next = this.#writing.catch(() => undefined).then(() => this.cassette.write(path));
    this.#writing = next;
    return next;
  }

  async #add(interaction: CassetteInteraction): Promise<void> {
    this.cassette.add(interaction);
    this.added(this.cassette.interactions.length - 1);
    await this.save();
  }
}
