import {
  Filesystem,
  FilesystemError,
  InMemoryFilesystem,
  Prompt,
  ResourceRegistry,
  type ToolCallOutcome,
} from 'affordance';
import { FilesystemToolsSection } from 'affordance/filesystem';

import { runToolCalls } from '../support/run-tool-calls.js';

const mebibyte = 1024 * 1024;
// 1 MiB of 'a', each replaced by 600 characters: 629,145,600 characters, more
// than the longest string V8 can hold, so an edit that built the new content
// before checking its size could not even report the limit.
const huge = { oldText: 'a', newText: 'b'.repeat(600), replaceAll: true };
const hugeSize = mebibyte * 600;

async function failure(promise: Promise<unknown>): Promise<FilesystemError> {
  const error = await promise.then(
    () => new Error('expected the edit to fail'),
    (e: unknown) => e,
  );
  if (FilesystemError.is(error)) return error;
  throw error;
}

describe('fs_edit refuses an edit whose result would be too large without building it', () => {
  it('computes the size of a replaceAll result from the count of occurrences', async () => {
    expect(() => 'b'.repeat(hugeSize)).toThrow(RangeError);
    const content = 'a'.repeat(mebibyte);
    const filesystem = new InMemoryFilesystem({ files: { 'big.txt': content } });
    const error = await failure(
      filesystem.edit('big.txt', huge.oldText, huge.newText, { replaceAll: true }),
    );
    expect(error.reason).toBe('limit_exceeded');
    expect(error.message).toBe(
      `edit 'big.txt': replacing ${mebibyte} occurrences would make the file ${hugeSize} bytes; the limit is ${mebibyte}. Replace fewer occurrences or a shorter text, or split the file.`,
    );
    expect(await filesystem.readText('big.txt')).toBe(content);
  });

  it('sends the refusal back to the model as a failed call and leaves the file unchanged', async () => {
    const content = 'a'.repeat(mebibyte);
    const filesystem = new InMemoryFilesystem({ files: { 'big.txt': content } });
    const resources = new ResourceRegistry().bind(Filesystem, { create: () => filesystem });
    const prompt = new Prompt({ ns: 'hardening', key: 'edit', sections: [FilesystemToolsSection] });
    const run = await runToolCalls(
      prompt,
      [[{ name: 'fs_edit', arguments: { path: 'big.txt', edits: [huge] } }]],
      { resources },
    );
    const outcome = run.outcomes[0] as ToolCallOutcome;
    expect(outcome.result.success).toBe(false);
    expect(outcome.message).toContain(
      `would make the file ${hugeSize} bytes; the limit is ${mebibyte}.`,
    );
    expect(await filesystem.readText('big.txt')).toBe(content);
  });

  it('counts UTF-8 bytes exactly: an edit landing on the limit passes, one byte over fails', async () => {
    const filesystem = new InMemoryFilesystem({
      limits: { maxFileBytes: 100 },
      files: { 'n.txt': 'xa'.repeat(20) },
    });
    const over = await failure(filesystem.edit('n.txt', 'a', 'éé.', { replaceAll: true }));
    expect(over.message).toContain('would make the file 120 bytes; the limit is 100.');
    const fits = await filesystem.edit('n.txt', 'a', 'éé', { replaceAll: true });
    expect(fits).toEqual({ path: 'n.txt', replacements: 20, size: 100 });
    expect(await filesystem.readText('n.txt')).toBe('xéé'.repeat(20));
  });

  it('uses a lower bound when the texts split a surrogate pair, and still refuses early', async () => {
    const filesystem = new InMemoryFilesystem({
      limits: { maxFileBytes: 100 },
      files: { 'e.txt': '😀😀' },
    });
    const error = await failure(
      filesystem.edit('e.txt', '\uD83D', 'x'.repeat(200), { replaceAll: true }),
    );
    expect(error.message).toContain('would make the file at least 402 bytes; the limit is 100.');
    expect(await filesystem.readText('e.txt')).toBe('😀😀');
  });

  it('names a single oversized replacement the same way', async () => {
    const filesystem = new InMemoryFilesystem({
      limits: { maxFileBytes: 10 },
      files: { 's.txt': 'one' },
    });
    const error = await failure(filesystem.edit('s.txt', 'one', 'x'.repeat(11)));
    expect(error.message).toBe(
      "edit 's.txt': replacing the occurrence would make the file 11 bytes; the limit is 10. Replace fewer occurrences or a shorter text, or split the file.",
    );
  });
});
