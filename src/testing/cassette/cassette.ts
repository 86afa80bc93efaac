import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

import { ConfigurationError } from '../../index.js';
import {
  PROVIDER_SEAM_VERSION,
  type ProviderAdapter,
  type ProviderCapabilities,
} from '../../provider/index.js';
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type CassetteAdapterInfo,
  type CassetteFile,
  type CassetteInteraction,
} from './cassette-format.js';
import { jsonCopy } from './stable-json.js';

const RE_RECORD =
  "Record it again: a ReplayAdapter with mode 'record' and a live adapter (or a RecordingAdapter) writes a new one.";

/**
 * A cassette in memory: the adapter it was recorded from and its
 * interactions, in the order they were recorded. `RecordingAdapter` and
 * `ReplayAdapter` take a file path or one of these; read and write files
 * with {@link Cassette.read} and {@link Cassette.write}.
 */
export class Cassette {
  /** Where the cassette was read from, or `in memory`; errors name it. */
  readonly source: string;
  #adapter: CassetteAdapterInfo;
  readonly #interactions: CassetteInteraction[];

  private constructor(
    source: string,
    adapter: CassetteAdapterInfo,
    interactions: CassetteInteraction[],
  ) {
    this.source = source;
    this.#adapter = adapter;
    this.#interactions = interactions;
  }

  /** An empty cassette recording `adapter` (its name, model and capabilities). */
  static of(adapter: ProviderAdapter, source = 'in memory'): Cassette {
    return new Cassette(source, adapterInfo(adapter), []);
  }

  /**
   * Reads a cassette from its JSON text.
   * @throws ConfigurationError when the text is not a cassette of this format version.
   */
  static parse(text: string, source = 'in memory'): Cassette {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw invalid(source, 'it is not JSON.', error);
    }
    const file = data as Partial<CassetteFile> | null;
    if (file === null || typeof file !== 'object' || file.format !== CASSETTE_FORMAT) {
      throw invalid(source, `it has no "format": "${CASSETTE_FORMAT}" field.`);
    }
    if (file.version !== CASSETTE_VERSION) {
      throw invalid(
        source,
        `it is format version ${String(file.version)}; this build reads version ${CASSETTE_VERSION}.`,
      );
    }
    const adapter = file.adapter as Partial<CassetteAdapterInfo> | undefined;
    const seamVersion = (adapter?.capabilities as Partial<ProviderCapabilities> | undefined)
      ?.seamVersion;
    if (adapter?.name === undefined || seamVersion !== PROVIDER_SEAM_VERSION) {
      throw invalid(
        source,
        `it was recorded for provider seam version ${String(seamVersion)}; ` +
          `this build speaks version ${PROVIDER_SEAM_VERSION}.`,
      );
    }
    const interactions: unknown = file.interactions;
    if (!Array.isArray(interactions)) throw invalid(source, 'its "interactions" is not a list.');
    (interactions as Partial<CassetteInteraction>[]).forEach((interaction, index) => {
      if (
        typeof interaction.key !== 'string' ||
        typeof interaction.request !== 'object' ||
        typeof interaction.turn !== 'object'
      ) {
        throw invalid(source, `interaction #${index + 1} lacks its "key", "request" or "turn".`);
      }
    });
    return new Cassette(source, adapter as CassetteAdapterInfo, [
      ...(interactions as CassetteInteraction[]),
    ]);
  }

  /**
   * Reads the cassette file at `path`, or answers `undefined` when there is none.
   * @throws ConfigurationError when the file is not a cassette of this format version.
   */
  static read(path: string): Cassette | undefined {
    if (!existsSync(path)) return undefined;
    return Cassette.parse(readFileSync(path, 'utf8'), path);
  }

  /** The adapter the cassette was recorded from. */
  get adapter(): CassetteAdapterInfo {
    return this.#adapter;
  }

  /** The recorded interactions, oldest first. */
  get interactions(): readonly CassetteInteraction[] {
    return this.#interactions;
  }

  /** Forgets every interaction and starts recording `adapter` anew. */
  restart(adapter: ProviderAdapter): void {
    this.#adapter = adapterInfo(adapter);
    this.#interactions.length = 0;
  }

  /** Adds an interaction at the end. */
  add(interaction: CassetteInteraction): void {
    this.#interactions.push(interaction);
  }

  /** The cassette file's data. */
  toJSON(): CassetteFile {
    return {
      format: CASSETTE_FORMAT,
      version: CASSETTE_VERSION,
      adapter: this.#adapter,
      interactions: this.#interactions,
    };
  }

  /** The cassette file's text: two-space indented JSON and a final newline. */
  toString(): string {
    return `${JSON.stringify(this.toJSON(), null, 2)}\n`;
  }

  /** Writes the cassette file to `path` (folders created), replacing the file whole. */
  async write(path: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, this.toString(), 'utf8');
    await rename(temporary, path);
  }
}

function adapterInfo(adapter: ProviderAdapter): CassetteAdapterInfo {
  return jsonCopy({
    name: adapter.name,
    model: adapter.model,
    capabilities: adapter.capabilities,
  }) as CassetteAdapterInfo;
}

function invalid(source: string, problem: string, cause?: unknown): ConfigurationError {
  return new ConfigurationError({
    subject: `Cassette '${source}'`,
    problem: `It cannot be replayed: ${problem}`,
    fix: RE_RECORD,
    cause,
  });
}
