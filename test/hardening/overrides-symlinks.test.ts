import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { IsString } from 'class-validator';

import {
  JsonFilePromptOverridesStore,
  MarkdownSection,
  Prompt,
  PromptOverridesError,
  ToolDefinition,
  ToolResult,
} from 'affordance';

class NoteParams {
  @IsString() text!: string;
}

function buildPrompt(ns: string, key: string): Prompt {
  return new Prompt({
    ns,
    key,
    sections: [
      new MarkdownSection({
        key: 'guide',
        title: 'Guide',
        template: 'Be brief.',
        tools: [
          new ToolDefinition({
            name: 'note',
            description: 'Takes a note.',
            params: NoteParams,
            handler: () => ToolResult.ok(null),
          }),
        ],
      }),
    ],
  });
}

const prompt = buildPrompt('hardening', 'links');

async function refusal(promise: Promise<unknown>): Promise<PromptOverridesError> {
  const error = await promise.then(
    () => new Error('expected the store to refuse'),
    (e: unknown) => e,
  );
  if (PromptOverridesError.is(error)) return error;
  throw error;
}

describe('JsonFilePromptOverridesStore never follows a symbolic link out of its root', () => {
  let base: string;
  let root: string;
  let outside: string;

  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'affordance-links-')));
    root = join(base, 'root');
    outside = join(base, 'outside');
    await mkdir(root);
    await mkdir(outside);
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('refuses to read, write or delete an override file that links to a file outside', async () => {
    // A valid override file elsewhere, which the store must not read as its own.
    const elsewhere = new JsonFilePromptOverridesStore({ root: outside });
    await elsewhere.seed(prompt);
    const target = elsewhere.fileFor(prompt.ns, prompt.key);
    const before = await readFile(target, 'utf8');
    const store = new JsonFilePromptOverridesStore({ root });
    const file = store.fileFor(prompt.ns, prompt.key);
    await mkdir(join(root, 'hardening', 'links'), { recursive: true });
    await symlink(target, file);

    const read = await refusal(store.resolve(prompt));
    expect(read.location).toBe(file);
    expect(read.message).toBe(
      `${file}: '${file}' leads through a symbolic link to '${target}', outside the store's root '${root}'. Remove the link and keep override files inside the root.`,
    );
    await refusal(store.seed(prompt));
    await refusal(store.upsert(prompt, await elsewhere.seed(prompt)));
    await refusal(store.delete(prompt.ns, prompt.key));
    expect(await readFile(target, 'utf8')).toBe(before);
  });

  it('refuses to write or delete through a linked directory, and writes nothing outside', async () => {
    await symlink(outside, join(root, 'hardening'), 'dir');
    const store = new JsonFilePromptOverridesStore({ root });

    const seeded = await refusal(store.seed(prompt));
    expect(seeded.message).toContain(
      `'${join(root, 'hardening')}' leads through a symbolic link to '${outside}', outside the store's root`,
    );
    await expect(readFile(join(outside, 'links', 'latest.json'))).rejects.toThrow(/ENOENT/);

    const elsewhere = new JsonFilePromptOverridesStore({ root: join(base, 'other') });
    const override = await elsewhere.seed(prompt);
    await refusal(store.upsert(prompt, override));
    await mkdir(join(outside, 'links'));
    await writeFile(join(outside, 'links', 'latest.json'), 'kept');
    await refusal(store.resolve(prompt));
    await refusal(store.delete(prompt.ns, prompt.key));
    expect(await readFile(join(outside, 'links', 'latest.json'), 'utf8')).toBe('kept');
  });

  it('refuses a link to a missing target, which it cannot check', async () => {
    const store = new JsonFilePromptOverridesStore({ root });
    const file = store.fileFor(prompt.ns, prompt.key);
    await mkdir(join(root, 'hardening', 'links'), { recursive: true });
    await symlink(join(outside, 'nothing.json'), file);
    const error = await refusal(store.seed(prompt));
    expect(error.message).toContain(`'${file}' is a symbolic link to a missing target.`);
    await expect(readFile(join(outside, 'nothing.json'))).rejects.toThrow(/ENOENT/);
  });

  it('still works when the root itself is a link, and with links that stay inside the root', async () => {
    const linkedRoot = join(base, 'root-link');
    await symlink(root, linkedRoot, 'dir');
    const store = new JsonFilePromptOverridesStore({ root: linkedRoot });
    const seeded = await store.seed(prompt);
    expect((await store.resolve(prompt)).override?.sections).toEqual(seeded.sections);

    await mkdir(join(root, 'shared'));
    await symlink(join(root, 'shared'), join(root, 'alias'), 'dir');
    const aliased = buildPrompt('alias', 'k');
    await store.seed(aliased);
    expect(await readFile(join(root, 'shared', 'k', 'latest.json'), 'utf8')).toContain(
      '"ns": "alias"',
    );
    expect(await store.delete('alias', 'k')).toBe(true);
  });
});
