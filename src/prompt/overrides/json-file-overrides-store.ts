import { randomUUID } from 'node:crypto';
import { lstat, mkdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

import { PromptOverridesError } from '../../core/errors/prompt-overrides-error.js';
import type { Prompt } from '../prompt.js';
import { partitionOverride } from './check-overrides.js';
import { describePrompt } from './prompt-descriptor.js';
import type { PromptOverride, SectionOverride, ToolOverride } from './prompt-override.js';
import type { PromptOverridesStore, ResolvedOverrides } from './prompt-overrides-store.js';

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const FILE_VERSION = 1;

/** Options of {@link JsonFilePromptOverridesStore}. */
export interface JsonFilePromptOverridesStoreOptions {
  /** The directory holding override files; keep it under version control. */
  readonly root: string;
  /** Throw instead of skipping entries that no longer apply. Defaults to `false`. */
  readonly strict?: boolean;
}

/**
 * Keeps prompt overrides as JSON files at `<root>/<ns segments>/<key>/<tag>.json`,
 * written atomically (temporary file + rename) and serialised per file within
 * the process. Review them like code: they change what the model reads.
 *
 * The store never reads, writes or deletes outside its root: a symbolic link
 * (to a file or to a directory) that leads out of the root's real path is
 * refused with a `PromptOverridesError`. The root itself may be a link. The
 * check runs before each access, so it does not guard against a link created
 * between the check and the access by someone who can write to the root.
 */
export class JsonFilePromptOverridesStore implements PromptOverridesStore {
  /** The directory holding override files. */
  readonly root: string;
  private readonly strict: boolean;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(options: JsonFilePromptOverridesStoreOptions) {
    this.root = resolve(options.root);
    this.strict = options.strict ?? false;
  }

  /** The file holding the overrides of `ns`/`key` under `tag`. */
  fileFor(ns: string, key: string, tag = 'latest'): string {
    const segments = [...ns.split('/'), key, tag];
    for (const segment of segments) {
      if (!SEGMENT.test(segment) || segment.includes('..')) {
        throw new PromptOverridesError(
          `'${segment}' cannot be part of an override file path: use letters, digits, '.', '_' and '-' (namespace segments separated by '/').`,
          { location: `${ns}/${key}#${tag}` },
        );
      }
    }
    return `${join(this.root, ...segments.slice(0, -1), segments.at(-1) ?? tag)}.json`;
  }

  async resolve(prompt: Prompt, tag = 'latest'): Promise<ResolvedOverrides> {
    const file = this.fileFor(prompt.ns, prompt.key, tag);
    await this.confine(file);
    const stored = await this.read(file);
    if (stored === undefined) return { override: undefined, skipped: [] };
    const { applicable, skipped } = partitionOverride(prompt, stored);
    if (this.strict && skipped.length > 0) {
      throw new PromptOverridesError(
        `stale override entries: ${skipped.map((s) => `${s.kind} '${s.target}': ${s.reason}`).join('; ')}. Re-seed or edit the file.`,
        { location: file },
      );
    }
    return { override: applicable, skipped };
  }

  async upsert(prompt: Prompt, override: PromptOverride): Promise<void> {
    const file = this.fileFor(prompt.ns, prompt.key, override.tag);
    const { skipped } = partitionOverride(prompt, override);
    if (skipped.length > 0) {
      throw new PromptOverridesError(
        `refusing to store entries that do not apply: ${skipped.map((s) => `${s.kind} '${s.target}': ${s.reason}`).join('; ')}.`,
        { location: file },
      );
    }
    await this.withLock(file, async () => {
      await this.confine(file);
      await writeAtomically(file, serialise(override));
    });
  }

  async delete(ns: string, key: string, tag = 'latest'): Promise<boolean> {
    const file = this.fileFor(ns, key, tag);
    return this.withLock(file, async () => {
      await this.confine(file);
      try {
        await rm(file);
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw new PromptOverridesError('could not delete the override file.', {
          location: file,
          cause: error,
        });
      }
    });
  }

  async seed(prompt: Prompt, tag = 'latest'): Promise<PromptOverride> {
    const file = this.fileFor(prompt.ns, prompt.key, tag);
    return this.withLock(file, async () => {
      await this.confine(file);
      const existing = await this.read(file);
      if (existing !== undefined) return existing;
      const seeded = seedOverride(prompt, tag);
      await writeAtomically(file, serialise(seeded));
      return seeded;
    });
  }

  private async read(file: string): Promise<PromptOverride | undefined> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw new PromptOverridesError('could not read the override file.', {
        location: file,
        cause: error,
      });
    }
    return parseOverrideFile(text, file);
  }

  /**
   * Refuses `file` if it, or the deepest of its directories that exists,
   * resolves (through symbolic links) to a real path outside the real root.
   */
  private async confine(file: string): Promise<void> {
    const realRoot = await realPathOrUndefined(this.root, file);
    // Without a root there is nothing to follow yet; the writes create real directories.
    if (realRoot === undefined) return;
    let existing = file;
    let real = await realPathOrUndefined(existing, file);
    while (real === undefined) {
      if (await isLink(existing)) {
        throw new PromptOverridesError(
          `'${existing}' is a symbolic link to a missing target. Remove the link and keep override files inside the root.`,
          { location: file },
        );
      }
      const parent = dirname(existing);
      if (existing === this.root || parent === existing) return;
      existing = parent;
      real = await realPathOrUndefined(existing, file);
    }
    const prefix = realRoot.endsWith(sep) ? realRoot : `${realRoot}${sep}`;
    if (real === realRoot || real.startsWith(prefix)) return;
    throw new PromptOverridesError(
      `'${existing}' leads through a symbolic link to '${real}', outside the store's root '${realRoot}'. Remove the link and keep override files inside the root.`,
      { location: file },
    );
  }

  private async withLock<T>(file: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(file) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.locks.set(file, settled);
    try {
      return await next;
    } finally {
      if (this.locks.get(file) === settled) this.locks.delete(file);
    }
  }
}

function seedOverride(prompt: Prompt, tag: string): PromptOverride {
  const descriptor = describePrompt(prompt);
  const nodes = new Map(prompt.registry.nodes.map((node) => [node.path.join('.'), node]));
  const tools = new Map(prompt.registry.tools.map((entry) => [entry.tool.name, entry.tool]));
  return {
    ns: prompt.ns,
    key: prompt.key,
    tag,
    sections: descriptor.sections.map((section) => ({
      path: section.path,
      expectedHash: section.contentHash,
      body: nodes.get(section.path.join('.'))?.section.bodyTemplate?.source ?? '',
    })),
    tools: descriptor.tools.map((tool) => ({
      name: tool.name,
      expectedContractHash: tool.contractHash,
      description: tools.get(tool.name)?.description,
    })),
  };
}

function serialise(override: PromptOverride): string {
  return `${JSON.stringify({ version: FILE_VERSION, ...override }, null, 2)}\n`;
}

async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${String(process.pid)}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new PromptOverridesError('could not write the override file.', {
      location: file,
      cause: error,
    });
  }
}

/** The real path of `path`, or `undefined` if it does not exist; other failures are reported for `file`. */
async function realPathOrUndefined(path: string, file: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch (error) {
    // A missing entry, or a file where a directory is expected: the access itself will say so.
    if (isNotFound(error) || (error as { code?: unknown } | null)?.code === 'ENOTDIR') {
      return undefined;
    }
    throw new PromptOverridesError(`could not resolve the real path of '${path}'.`, {
      location: file,
      cause: error,
    });
  }
}

async function isLink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}

/** Parses and checks the shape of an override file. @internal */
export function parseOverrideFile(text: string, location: string): PromptOverride {
  const data = parseJson(text, location);
  const fail = (what: string): never => {
    throw new PromptOverridesError(`${what}. Fix the file or re-create it with store.seed().`, {
      location,
    });
  };
  if (!isRecord(data)) return fail('the file must hold a JSON object');
  if (data['version'] !== FILE_VERSION)
    fail(`unsupported "version" ${JSON.stringify(data['version'])}, expected ${FILE_VERSION}`);
  const ns = data['ns'];
  const key = data['key'];
  const tag = data['tag'];
  if (typeof ns !== 'string' || typeof key !== 'string' || typeof tag !== 'string') {
    return fail('"ns", "key" and "tag" must be strings');
  }
  const sectionsData = data['sections'] ?? [];
  const toolsData = data['tools'] ?? [];
  if (!Array.isArray(sectionsData) || !Array.isArray(toolsData))
    return fail('"sections" and "tools" must be arrays');
  const sections = sectionsData.map((entry: unknown, index) =>
    parseSectionOverride(entry, index, fail),
  );
  const tools = toolsData.map((entry: unknown, index) => parseToolOverride(entry, index, fail));
  return { ns, key, tag, sections, tools };
}

/** The JSON value of an override file's text. */
function parseJson(text: string, location: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new PromptOverridesError(`the file is not valid JSON (${(error as Error).message}).`, {
      location,
      cause: error,
    });
  }
}

/** Checks the shape of `sections[index]` of an override file. */
function parseSectionOverride(
  entry: unknown,
  index: number,
  fail: (what: string) => never,
): SectionOverride {
  if (
    !isRecord(entry) ||
    !Array.isArray(entry['path']) ||
    !entry['path'].every((part) => typeof part === 'string') ||
    typeof entry['expectedHash'] !== 'string' ||
    typeof entry['body'] !== 'string'
  ) {
    return fail(
      `sections[${index}] needs "path" (array of keys), "expectedHash" and "body" strings`,
    );
  }
  return {
    path: entry['path'],
    expectedHash: entry['expectedHash'],
    body: entry['body'],
  };
}

/** Checks the shape of `tools[index]` of an override file. */
function parseToolOverride(
  entry: unknown,
  index: number,
  fail: (what: string) => never,
): ToolOverride {
  if (
    !isRecord(entry) ||
    typeof entry['name'] !== 'string' ||
    typeof entry['expectedContractHash'] !== 'string'
  ) {
    return fail(`tools[${index}] needs "name" and "expectedContractHash" strings`);
  }
  const description = entry['description'];
  if (description !== undefined && typeof description !== 'string')
    return fail(`tools[${index}].description must be a string`);
  const params = entry['paramDescriptions'];
  if (
    params !== undefined &&
    (!isRecord(params) || !Object.values(params).every((v) => typeof v === 'string'))
  ) {
    return fail(`tools[${index}].paramDescriptions must map field names to strings`);
  }
  return {
    name: entry['name'],
    expectedContractHash: entry['expectedContractHash'],
    description,
    paramDescriptions: params as Record<string, string> | undefined,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
