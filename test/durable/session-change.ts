import type { JsonValue } from 'affordance';
import type { SessionChange, StoredSlice } from 'affordance/durable';

/** The createdAt and tags every test session starts with. */
export const created = {
  createdAt: '2025-03-04T05:06:07.089Z',
  tags: { tenant: 'acme', 'user-id': 'u-1' },
};

/** A change of `sessionId` expecting `expectedVersion`, with nothing in it unless given. */
export function change(
  sessionId: string,
  expectedVersion: number,
  parts: Partial<Omit<SessionChange, 'sessionId' | 'expectedVersion'>> = {},
): SessionChange {
  return {
    sessionId,
    expectedVersion,
    createdAt: parts.createdAt ?? created.createdAt,
    tags: parts.tags ?? created.tags,
    append: parts.append ?? [],
    replace: parts.replace ?? [],
    records: parts.records ?? {},
  };
}

/** A log slice. */
export function log(name: string, ...values: JsonValue[]): StoredSlice {
  return { name, policy: 'log', values };
}

/** A state slice. */
export function state(name: string, ...values: JsonValue[]): StoredSlice {
  return { name, policy: 'state', values };
}

/**
 * Names that trip encoders but every store can keep: astral characters, a
 * combining mark, separators, bidi controls, quotes, backslashes, braces.
 */
export const awkwardName = 'héllo 世界 🎉👩🏽‍💻 e\u0301 \u2028 ‮rtl‬ "q" \\b\\ {tag} tab\tnew\nline';

/** Value text that only JSON escapes can carry: NUL and a lone surrogate, besides {@link awkwardName}. */
export const awkwardText = `${awkwardName} \u0000 \ud800 \udfff`;

/** Nested JSON whose keys are not in sorted order, with every kind of JSON value. */
export const nestedValue: JsonValue = {
  zeta: 1,
  alpha: {
    yankee: [1, 2.5, -3e-7, 1e21, true, false, null],
    bravo: { '': 'empty key', '🔑': awkwardText },
  },
  middle: [[[]], {}, [{ z: 'z', a: 'a' }]],
  count: Number.MAX_SAFE_INTEGER,
};

/** About 1 MB of JSON text: a long multilingual string and many small objects. */
export function bigValue(): JsonValue {
  return {
    text: 'αβγ🎉 '.repeat(70_000),
    items: Array.from({ length: 4_500 }, (_, index) => ({
      index,
      label: `item ${index}`,
      even: index % 2 === 0,
    })),
  };
}
