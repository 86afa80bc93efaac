import { createHash } from 'node:crypto';

import {
  type Filesystem,
  FilesystemError,
  type FilesystemErrorReason,
  type PolicyCall,
  PolicyDecision,
  type Session,
  type ToolContext,
  type ToolPolicy,
} from '../index.js';
import { FsEditParams } from './fs-edit-params.js';
import { FsReadParams } from './fs-read-params.js';
import { FsWriteParams } from './fs-write-params.js';

/**
 * What one evaluation last saw of a file: the digest of its whole content when
 * it read it with `fs_read`, or wrote it with `fs_write` or `fs_edit`. Kept in
 * a STATE slice of the session, one per evaluation and path, so a call that is
 * rolled back takes its record with it, and a paused evaluation finds it again
 * when it resumes.
 */
class FileReadRecorded {
  constructor(
    readonly evaluationId: string,
    readonly path: string,
    readonly digest: string,
  ) {
    Object.freeze(this);
  }
}

/** A file as it is now: its normalised path and the digest of its content. */
interface FileVersion {
  readonly path: string;
  readonly digest: string;
}

/** Why a path has no file a write or edit could change; the tool itself reports these. */
const NO_FILE: ReadonlySet<FilesystemErrorReason> = new Set<FilesystemErrorReason>([
  'not_found',
  'not_a_directory',
  'outside_root',
  'invalid_path',
  'limit_exceeded',
]);

/**
 * Keeps the model from writing over what it has not seen, for the tools of
 * `FilesystemToolsSection`: replacing or appending to an existing file
 * (`fs_write` with mode `overwrite` or `append`) or editing one (`fs_edit`) is
 * denied unless this evaluation read that file with `fs_read` and the file has
 * not changed since. Creating a file is allowed, and after its own successful
 * `fs_write` or `fs_edit` the evaluation may go on changing the file without
 * reading it again. Reads are compared by the SHA-256 digest of the whole file
 * (not only the lines shown), kept per evaluation and normalised path in the
 * session. A path with no file there (missing, outside the root) is left to the
 * tool, which refuses it itself. Declare it on the prompt or on a section that
 * holds the filesystem tools.
 *
 * @example
 * new Prompt({ ns: 'agents', key: 'editor', sections: [FilesystemToolsSection],
 *   policies: [new ReadBeforeWritePolicy()] });
 */
export class ReadBeforeWritePolicy implements ToolPolicy {
  /** Names the policy in denials. */
  readonly name = 'read_before_write';

  /** Denies an overwrite, append or edit of a file this evaluation has not read as it is now. */
  check(call: PolicyCall): PolicyDecision | Promise<PolicyDecision> {
    const path = guardedPath(call);
    const filesystem = call.context.filesystem;
    if (path === undefined || filesystem === undefined) return PolicyDecision.allow();
    return checkFile(call, filesystem, path);
  }

  /** Records the digest of the file a successful `fs_read`, `fs_write` or `fs_edit` read or wrote. */
  afterResult(call: PolicyCall): Promise<void> | undefined {
    const path = touchedPath(call);
    const filesystem = call.context.filesystem;
    if (path === undefined || filesystem === undefined) return undefined;
    return record(call.context, filesystem, path);
  }
}

async function checkFile(
  { tool, context }: PolicyCall,
  filesystem: Filesystem,
  path: string,
): Promise<PolicyDecision> {
  const current = await versionOf(filesystem, path);
  if (current === undefined) return PolicyDecision.allow();
  const seen = recordOf(context.session, context.evaluationId, current.path);
  const change = tool.name === 'fs_edit' ? 'editing' : 'writing over';
  const allowWhen = `Call fs_read for ${current.path} first.`;
  if (seen === undefined) {
    return PolicyDecision.deny(
      `'${current.path}' was not read in this evaluation; ${change} it could lose content you have not seen.`,
      allowWhen,
    );
  }
  if (seen.digest !== current.digest) {
    return PolicyDecision.deny(
      `'${current.path}' changed since it was read in this evaluation; ${change} it could lose the change.`,
      allowWhen,
    );
  }
  return PolicyDecision.allow();
}

async function record(context: ToolContext, filesystem: Filesystem, path: string): Promise<void> {
  const current = await versionOf(filesystem, path);
  if (current === undefined) return;
  const { evaluationId } = context;
  const slice = context.session.slice(FileReadRecorded);
  slice.clear((seen) => seen.evaluationId === evaluationId && seen.path === current.path);
  slice.append(new FileReadRecorded(evaluationId, current.path, current.digest));
}

/** The path of a call that changes an existing file's content, if the call is one. */
function guardedPath({ tool, params }: PolicyCall): string | undefined {
  if (tool.name === 'fs_edit') return expectParams(tool.name, params, FsEditParams).path;
  if (tool.name !== 'fs_write') return undefined;
  const write = expectParams(tool.name, params, FsWriteParams);
  return (write.mode ?? 'create') === 'create' ? undefined : write.path;
}

/** The path of a call whose success means the evaluation knows the file's content. */
function touchedPath(call: PolicyCall): string | undefined {
  const { tool, params } = call;
  if (tool.name === 'fs_read') return expectParams(tool.name, params, FsReadParams).path;
  if (tool.name === 'fs_write') return expectParams(tool.name, params, FsWriteParams).path;
  if (tool.name === 'fs_edit') return expectParams(tool.name, params, FsEditParams).path;
  return undefined;
}

/** `params` as the filesystem tools' params class; throws (so the call is refused) for another tool of that name. */
function expectParams<P>(tool: string, params: unknown, type: new () => P): P {
  if (params instanceof type) return params;
  throw new TypeError(
    `ReadBeforeWritePolicy guards the ${tool} of FilesystemToolsSection, which takes ${type.name}; this ${tool} does not.`,
  );
}

/** The newest record of `path` by `evaluationId`, if any. */
function recordOf(
  session: Session,
  evaluationId: string,
  path: string,
): FileReadRecorded | undefined {
  for (const seen of session.view.slice(FileReadRecorded)) {
    if (seen.evaluationId === evaluationId && seen.path === path) return seen;
  }
  return undefined;
}

/** The file at `path` as it is now, or `undefined` when there is no file a write could change. */
async function versionOf(filesystem: Filesystem, path: string): Promise<FileVersion | undefined> {
  let normalised: string;
  try {
    const stat = await filesystem.stat(path);
    if (stat.kind !== 'file') return undefined;
    normalised = stat.path;
  } catch (error) {
    if (FilesystemError.is(error) && NO_FILE.has(error.reason)) return undefined;
    throw error;
  }
  const content = await filesystem.readText(path);
  return { path: normalised, digest: createHash('sha256').update(content, 'utf8').digest('hex') };
}
