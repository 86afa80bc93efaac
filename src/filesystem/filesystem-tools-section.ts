import { inject, optional } from 'inversify';

import {
  type FileStat,
  FilesystemError,
  isSnapshotable,
  Section,
  Tool,
  type ToolContext,
  ToolResult,
  type WriteMode,
} from '../index.js';
import { FilesystemToolsLimits } from './filesystem-tools-limits.js';
import { FsEditParams } from './fs-edit-params.js';
import { FsGlobParams } from './fs-glob-params.js';
import { FsGrepParams } from './fs-grep-params.js';
import { FsListParams } from './fs-list-params.js';
import { FsReadParams } from './fs-read-params.js';
import { FsRemoveParams } from './fs-remove-params.js';
import { FsWriteParams } from './fs-write-params.js';
import { cutLine, truncateLines } from './truncate-lines.js';
import { withFilesystem } from './with-filesystem.js';

const template = [
  'Work with the files of the workspace through these tools. Paths are relative to the workspace root.',
  '',
  '- fs_list shows a directory; fs_glob finds files by path pattern (*, ?, **, [abc], {a,b}); fs_grep finds lines matching a regular expression.',
  '- fs_read shows a file, each line prefixed with its number and a tab; read long files in windows with startLine and lineCount.',
  '- fs_write creates a file (mode create, the default), replaces it (overwrite) or adds to its end (append).',
  '- fs_edit replaces exact text. Copy oldText from the file without the line-number prefix, with enough context to occur once. Several edits in one call apply in order, all or none.',
  '- fs_remove deletes a file, or a directory with recursive.',
  '- Long results end with a "[truncated: N more lines]" note: narrow the request to see the rest.',
].join('\n');

/**
 * File tools over the evaluation's `Filesystem` resource: `fs_list`, `fs_read`,
 * `fs_write`, `fs_edit`, `fs_glob`, `fs_grep` and `fs_remove`. Refused
 * operations come back to the model as failed results with the filesystem's
 * message, and a failed call leaves the files as they were (the runtime rolls
 * a snapshotable filesystem back). Output is capped by {@link FilesystemToolsLimits}.
 *
 * @example
 * const resources = new ResourceRegistry().bind(Filesystem, { create: () => new InMemoryFilesystem() });
 * await runtime.evaluate(new Prompt({ ns: 'agents', key: 'editor', sections: [FilesystemToolsSection] }), { resources });
 */
@Section({
  key: 'filesystem.tools',
  title: 'Filesystem Tools',
  template,
  acceptsOverrides: false,
})
export class FilesystemToolsSection {
  private readonly limits: FilesystemToolsLimits;

  constructor(
    @inject(FilesystemToolsLimits) @optional() limits: FilesystemToolsLimits | undefined,
  ) {
    this.limits = limits ?? new FilesystemToolsLimits();
  }

  @Tool({
    name: 'fs_list',
    description: 'List the files and directories in a directory of the workspace.',
    acceptsOverrides: false,
    readOnly: true,
  })
  list(params: FsListParams, context: ToolContext): Promise<ToolResult<string>> {
    return withFilesystem(context, async (filesystem) => {
      const path = params.path ?? '.';
      const entries = await filesystem.list(path);
      if (entries.length === 0) return ToolResult.ok('', `Directory '${path}' is empty.`);
      const lines = truncateLines(entries.map(describeEntry), this.limits.maxListEntries);
      return ToolResult.ok(
        lines.join('\n'),
        `Directory '${path}' has ${count(entries.length, 'entry', 'entries')}.`,
      );
    });
  }

  @Tool({
    name: 'fs_read',
    description: 'Read lines of a text file, numbered from 1.',
    acceptsOverrides: false,
    readOnly: true,
  })
  read(params: FsReadParams, context: ToolContext): Promise<ToolResult<string>> {
    return withFilesystem(context, async (filesystem) => {
      const max = this.limits.maxReadLines;
      const start = params.startLine ?? 1;
      const wanted = params.lineCount ?? undefined;
      const window = await filesystem.read(params.path, {
        offset: start - 1,
        limit: Math.min(wanted ?? max, max),
      });
      if (window.totalLines === 0) return ToolResult.ok('', `File '${window.path}' is empty.`);
      if (window.lineCount === 0) {
        return ToolResult.error(
          `File '${window.path}' has ${count(window.totalLines, 'line', 'lines')}; startLine ${start} is past the end.`,
        );
      }
      const last = start + window.lineCount - 1;
      const width = String(last).length;
      const lines = window.content
        .split('\n')
        .slice(0, window.lineCount)
        .map(
          (line, index) =>
            `${String(start + index).padStart(width)}\t${cutLine(line, this.limits.maxLineLength)}`,
        );
      const remaining = window.totalLines - last;
      // The note marks a cut the model did not ask for; a window it chose just says where to go on.
      const capped = remaining > 0 && (wanted === undefined || wanted > max);
      let message = `Read '${window.path}', lines ${start}-${last} of ${window.totalLines}.`;
      if (remaining > 0) message += ` Continue with startLine ${last + 1}.`;
      return ToolResult.ok(
        truncateLines(lines, lines.length, capped ? remaining : 0).join('\n'),
        message,
      );
    });
  }

  @Tool({
    name: 'fs_write',
    description: 'Create a text file, replace one, or append to one.',
    acceptsOverrides: false,
  })
  write(params: FsWriteParams, context: ToolContext): Promise<ToolResult<never>> {
    return withFilesystem(context, async (filesystem) => {
      const mode: WriteMode = params.mode ?? 'create';
      const written = await filesystem.write(params.path, params.content, { mode });
      const size = count(written.size, 'byte', 'bytes');
      const message = written.created
        ? `Created '${written.path}' (${size}).`
        : mode === 'append'
          ? `Appended to '${written.path}' (now ${size}).`
          : `Replaced '${written.path}' (${size}).`;
      return new ToolResult<never>({ message });
    });
  }

  @Tool({
    name: 'fs_edit',
    description: 'Replace exact text in a file; several replacements apply in order, all or none.',
    acceptsOverrides: false,
  })
  edit(params: FsEditParams, context: ToolContext): Promise<ToolResult<never>> {
    return withFilesystem(context, async (filesystem) => {
      let replacements = 0;
      let size = 0;
      for (const [index, edit] of params.edits.entries()) {
        try {
          const result = await filesystem.edit(params.path, edit.oldText, edit.newText, {
            replaceAll: edit.replaceAll ?? false,
          });
          replacements += result.replacements;
          size = result.size;
        } catch (error) {
          if (!FilesystemError.is(error) || params.edits.length === 1) throw error;
          const earlier =
            index === 1 ? 'the edit before it was' : `the ${index} edits before it were`;
          const outcome =
            index === 0
              ? 'The file is unchanged.'
              : isSnapshotable(filesystem)
                ? `The file is unchanged: ${earlier} undone.`
                : `Beware: ${earlier} kept (this filesystem cannot roll back).`;
          return ToolResult.error(
            `Edit ${index + 1} of ${params.edits.length} failed: ${error.message} ${outcome}`,
          );
        }
      }
      return new ToolResult<never>({
        message: `Edited '${params.path}': ${count(replacements, 'replacement', 'replacements')} (now ${count(size, 'byte', 'bytes')}).`,
      });
    });
  }

  @Tool({
    name: 'fs_glob',
    description: 'Find files whose path matches a glob pattern.',
    acceptsOverrides: false,
    readOnly: true,
  })
  glob(params: FsGlobParams, context: ToolContext): Promise<ToolResult<string>> {
    const tooLong = this.tooLong('glob pattern', params.pattern);
    if (tooLong !== undefined) return Promise.resolve(tooLong);
    return withFilesystem(context, async (filesystem) => {
      const paths = await filesystem.glob(params.pattern, { path: params.path ?? '.' });
      if (paths.length === 0) return ToolResult.ok('', `No files match '${params.pattern}'.`);
      const lines = truncateLines(paths, this.limits.maxGlobResults);
      return ToolResult.ok(
        lines.join('\n'),
        `${count(paths.length, 'file matches', 'files match')} '${params.pattern}'.`,
      );
    });
  }

  @Tool({
    name: 'fs_grep',
    description: 'Find the lines of files that match a regular expression.',
    acceptsOverrides: false,
    readOnly: true,
  })
  grep(params: FsGrepParams, context: ToolContext): Promise<ToolResult<string>> {
    const tooLong =
      this.tooLong('pattern', params.pattern) ?? this.tooLong('glob', params.glob ?? '');
    if (tooLong !== undefined) return Promise.resolve(tooLong);
    return withFilesystem(context, async (filesystem) => {
      const found = await filesystem.grep(params.pattern, {
        path: params.path ?? '.',
        ...(params.glob == null ? {} : { glob: params.glob }),
        ignoreCase: params.ignoreCase ?? false,
        signal: context.signal,
      });
      const matches = found.matches;
      if (matches.length === 0) return ToolResult.ok('', `No lines match '${params.pattern}'.`);
      const lines = matches.map(
        (match) => `${match.path}:${match.line}: ${cutLine(match.text, this.limits.maxLineLength)}`,
      );
      let message = `${count(matches.length, 'line matches', 'lines match')} '${params.pattern}'.`;
      if (found.truncated) {
        message = `The first ${count(matches.length, 'line matches', 'lines match')} '${params.pattern}'; the search stopped there. Narrow it with path or glob.`;
      }
      return ToolResult.ok(truncateLines(lines, this.limits.maxGrepMatches).join('\n'), message);
    });
  }

  /** A failed result if `pattern` is longer than the limit, before anything is searched. */
  private tooLong(what: string, pattern: string): ToolResult<string> | undefined {
    const max = this.limits.maxPatternLength;
    if (pattern.length <= max) return undefined;
    return ToolResult.error(
      `The ${what} is ${pattern.length} characters long; the limit is ${max}. Use a shorter, more specific one.`,
    );
  }

  @Tool({
    name: 'fs_remove',
    description: 'Remove a file, or a directory with everything in it.',
    acceptsOverrides: false,
  })
  remove(params: FsRemoveParams, context: ToolContext): Promise<ToolResult<never>> {
    return withFilesystem(context, async (filesystem) => {
      await filesystem.remove(params.path, { recursive: params.recursive ?? false });
      return new ToolResult<never>({ message: `Removed '${params.path}'.` });
    });
  }
}

function describeEntry(entry: FileStat): string {
  return entry.kind === 'directory'
    ? `${entry.name}/ (${count(entry.size, 'entry', 'entries')})`
    : `${entry.name} (${count(entry.size, 'byte', 'bytes')})`;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
