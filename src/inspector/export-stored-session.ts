import {
  ConfigurationError,
  GuardrailChecked,
  type JsonValue,
  LoopIntervention,
  PromptExecuted,
  PromptRendered,
  ToolInvoked,
} from 'affordance';
import { SessionCodec, SessionStore } from 'affordance/durable';

import { buildSessionExport } from './build-session-export.js';
import type { EventRecord, RecordKind } from './event-record.js';
import type { ExportSessionOptions } from './export-session.js';
import { toExportJson } from './export-json.js';
import type { SessionExport } from './session-export.js';

const EVENT_CLASSES: readonly (readonly [RecordKind, new (...args: never[]) => object])[] = [
  ['PromptRendered', PromptRendered],
  ['GuardrailChecked', GuardrailChecked],
  ['ToolInvoked', ToolInvoked],
  ['LoopIntervention', LoopIntervention],
  ['PromptExecuted', PromptExecuted],
];

/**
 * The export ({@link SessionExport}) of the session stored as `sessionId` in
 * `store`, read without opening it for writing. Values are decoded with
 * `codec` (give the one the application stores with, so its own classes come
 * back as they are); a value holding a class the codec does not know is read
 * as its stored fields, so an inspector needs none of the application's code.
 *
 * @throws ConfigurationError when no session is stored under `sessionId`.
 */
export async function exportStoredSession(
  store: SessionStore,
  sessionId: string,
  codec: SessionCodec = new SessionCodec(),
  options: ExportSessionOptions = {},
): Promise<SessionExport> {
  if (!(store instanceof SessionStore)) {
    throw new ConfigurationError({
      subject: 'exportStoredSession',
      problem: 'expected a SessionStore as the first argument.',
      fix: 'Pass the store the sessions are kept in, e.g. new PostgresSessionStore({ pool }).',
    });
  }
  const stored = await store.load(sessionId);
  if (stored === undefined) {
    throw new ConfigurationError({
      subject: `Session ${JSON.stringify(sessionId)}`,
      problem: 'is not stored in this store.',
      fix: 'Check the session id (the sessionId of the session the evaluation used) and the store it was committed to.',
    });
  }
  const records: EventRecord[] = [];
  for (const [kind, type] of EVENT_CLASSES) {
    const name = codec.nameOf(type);
    const slice = stored.slices.find((item) => item.name === name);
    slice?.values.forEach((json, index) => {
      const where = { sessionId, slice: slice.name, index };
      let fields: unknown;
      try {
        fields = toExportJson(codec.decode(json, where));
      } catch {
        fields = storedFields(json);
      }
      records.push({ kind, fields: fields as Record<string, unknown>, index });
    });
  }
  return buildSessionExport(
    { sessionId, createdAt: stored.createdAt, tags: stored.tags },
    records,
    options.approvals ?? [],
  );
}

/**
 * A stored value read as plain JSON without its classes: the codec's tagged
 * forms (`$class`, `$date`, `$map`, ... see `durable/encode-value.ts`) become
 * their fields, ISO strings, pairs and arrays.
 */
function storedFields(json: JsonValue): unknown {
  if (json === null || typeof json !== 'object') return json;
  if (Array.isArray(json)) return json.map(storedFields);
  const mark = Object.keys(json)[0];
  const inner = mark === undefined ? undefined : json[mark];
  switch (mark) {
    case '$undefined':
      return null;
    case '$number':
      return 0;
    case '$date':
      return inner;
    case '$object':
    case '$bare':
      return storedFields(inner ?? null);
    case '$map':
    case '$set':
      return storedFields(inner ?? null);
    case '$class':
      return storedFields(json['fields'] ?? json['value'] ?? null);
    case undefined:
    default: {
      const fields: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(json)) {
        Object.defineProperty(fields, key, {
          value: storedFields(value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return fields;
    }
  }
}
