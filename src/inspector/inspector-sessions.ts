import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { ConfigurationError } from 'affordance';
import { type SessionCodec, SessionStore } from 'affordance/durable';

import { exportStoredSession } from './export-stored-session.js';
import { readSessionExports } from './read-session-export.js';
import type { SessionExport } from './session-export.js';

/** A file name the inspector serves: a letter or digit, then letters, digits, `.`, `_`, `-`, ending in `.json`. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}\.json$/;

/** The default of `maxFileBytes`: 50 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 50 * 1024 * 1024;

/** The default of `maxFiles`. */
export const DEFAULT_MAX_FILES = 1000;

/** Where an inspector finds sessions: export files on disk, or a session store. @internal */
export interface InspectorSource {
  /** What the index page lists (file names without `.json`); `undefined` for a store, which cannot list. */
  list(): Promise<readonly string[] | undefined>;
  /** The exports under `name`, or `undefined` when there is none. */
  open(name: string): Promise<SessionExport[] | undefined>;
  /** Says where the sessions come from, for the index page. */
  readonly description: string;
}

/** The limits and codec of a source. @internal */
export interface SourceOptions {
  readonly codec?: SessionCodec | undefined;
  readonly maxFileBytes: number;
  readonly maxFiles: number;
}

/** The source of `sessions`: a directory or file of exports, or a store. @internal */
export async function inspectorSource(
  sessions: string | SessionStore,
  options: SourceOptions,
): Promise<InspectorSource> {
  if (sessions instanceof SessionStore) return storeSource(sessions, options.codec);
  if (typeof sessions !== 'string' || sessions === '') {
    throw new ConfigurationError({
      subject: 'Inspector sessions',
      problem: 'must be a directory or file of session exports, or a SessionStore.',
      fix: "Pass e.g. { sessions: './eval-runs/sessions' } or { sessions: new PostgresSessionStore({ pool }) }.",
    });
  }
  let info;
  try {
    info = await stat(sessions);
  } catch (error) {
    throw new ConfigurationError({
      subject: `Inspector sessions ${JSON.stringify(sessions)}`,
      problem: 'cannot be read (no such file or directory?).',
      fix: 'Pass the directory the session exports were written to, or one export file.',
      cause: error,
    });
  }
  if (info.isDirectory()) return directorySource(sessions, undefined, options);
  if (!FILE_NAME.test(basename(sessions))) {
    throw new ConfigurationError({
      subject: `Inspector sessions ${JSON.stringify(sessions)}`,
      problem: 'is not a .json file with a plain name (letters, digits, ".", "_", "-").',
      fix: 'Rename the export file, e.g. session-1.json.',
    });
  }
  return directorySource(dirname(sessions), basename(sessions), options);
}

function storeSource(store: SessionStore, codec: SessionCodec | undefined): InspectorSource {
  return {
    description: `the session store (${store.constructor.name})`,
    list: () => Promise.resolve(undefined),
    open: async (name) => {
      if (name.length > 512) return undefined;
      try {
        return [await exportStoredSession(store, name, codec)];
      } catch (error) {
        if (ConfigurationError.is(error) && error.problem.startsWith('is not stored'))
          return undefined;
        throw error;
      }
    },
  };
}

function directorySource(
  directory: string,
  only: string | undefined,
  options: SourceOptions,
): InspectorSource {
  const list = async (): Promise<readonly string[]> => {
    const names =
      only === undefined
        ? (await readdir(directory)).filter((name) => FILE_NAME.test(name)).sort()
        : [only];
    return names.slice(0, options.maxFiles).map((name) => name.slice(0, -'.json'.length));
  };
  return {
    description:
      only === undefined ? `the directory ${directory}` : `the file ${join(directory, only)}`,
    list,
    open: async (name) => {
      const file = `${name}.json`;
      if (!FILE_NAME.test(file) || !(await list()).includes(name)) return undefined;
      const path = join(directory, file);
      const info = await stat(path);
      if (info.size > options.maxFileBytes) {
        throw new ConfigurationError({
          subject: `Session export ${file}`,
          problem: `is ${info.size} bytes, more than the inspector reads (maxFileBytes ${options.maxFileBytes}).`,
          fix: 'Raise maxFileBytes (--max-file-bytes), or export fewer sessions per file.',
        });
      }
      return readSessionExports(await readFile(path, 'utf8'), file);
    },
  };
}
