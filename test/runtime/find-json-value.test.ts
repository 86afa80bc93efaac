import fc from 'fast-check';

import { findJsonValue, type JsonSpan } from '../../src/schema/find-json-value.js';

/**
 * The definition, by brute force: the first `{` or `[` from which some prefix
 * of the rest is accepted by JSON.parse (the shortest such prefix is the value).
 */
function bruteForce(text: string): JsonSpan | undefined {
  for (let start = 0; start < text.length; start++) {
    if (text[start] !== '{' && text[start] !== '[') continue;
    for (let end = start + 1; end <= text.length; end++) {
      try {
        return { start, end, value: JSON.parse(text.slice(start, end)) as unknown };
      } catch {
        // Try a longer prefix.
      }
    }
  }
  return undefined;
}

/** Fragments that make valid and nearly-valid JSON likely. */
const token = fc.constantFrom(
  '{',
  '}',
  '[',
  ']',
  '"',
  '"a"',
  '"{"',
  '"]"',
  '"\\"',
  '\\"',
  ':',
  ',',
  ' ',
  '\n',
  '1',
  '-2.5e3',
  '01',
  '1.',
  'true',
  'nul',
  'null',
  'x',
  '"\\u00e9"',
  '"\\x"',
  '\u0001',
);
const tokenSoup = fc.array(token, { maxLength: 24 }).map((parts) => parts.join(''));

/** Valid JSON with some text spliced in at a random place. */
const damagedJson = fc
  .tuple(fc.json({ maxDepth: 3 }), fc.nat(), fc.string({ maxLength: 4 }))
  .map(([json, at, insert]) => {
    const cut = at % (json.length + 1);
    return json.slice(0, cut) + insert + json.slice(cut);
  });

describe(findJsonValue, () => {
  it('should return the first object or array and where it is', () => {
    const text = 'say {"a": [1, {"b": null}]} and [2]';

    expect(findJsonValue(text)).toEqual({
      start: 4,
      end: 27,
      value: { a: [1, { b: null }] },
    });
  });

  it('should ignore brackets inside strings, escaped quotes included', () => {
    const text = 'x {"s": "}]\\"{[", "t": "\\u007b"} y';

    expect(findJsonValue(text)?.value).toEqual({ s: '}]"{[', t: '{' });
  });

  it('should give back a value nested in an invalid one', () => {
    expect(findJsonValue('[1, {"k": [true]}, nope]')?.value).toEqual({ k: [true] });
    expect(findJsonValue('{"a": [1, 2], "b": }')?.value).toEqual([1, 2]);
  });

  it.each([
    ['a leading zero', '[01]'],
    ['a bare decimal point', '[1.]'],
    ['a bare exponent', '[1e]'],
    ['a plus sign', '[+1]'],
    ['a misspelt literal', '[tru]'],
    ['a trailing comma', '[1,]'],
    ['a single-quoted string', "['a']"],
    ['an unquoted key', '{a: 1}'],
    ['a raw newline in a string', '["a\nb"]'],
    ['an unknown escape', '["\\x"]'],
    ['a short unicode escape', '["\\u12"]'],
    ['a missing colon', '{"a" 1}'],
  ])('should reject %s as JSON.parse does', (_name, text) => {
    expect(() => JSON.parse(text) as unknown).toThrow(SyntaxError);
    expect(findJsonValue(text)).toBeUndefined();
  });

  it.each([
    ['numbers', '[-0, 0.5, -12.5e+3, 1E-2, 7]'],
    ['literals', '[true, false, null]'],
    ['escapes', '["\\"\\\\\\/\\b\\f\\n\\r\\t\\u00E9"]'],
    ['whitespace', '{ \t"a"\r\n :\n[ ] , "b" : { } }'],
    ['empty containers', '[[], {}, [[{}]]]'],
  ])('should accept %s as JSON.parse does', (_name, text) => {
    expect(findJsonValue(`prose ${text} prose`)).toEqual({
      start: 6,
      end: 6 + text.length,
      value: JSON.parse(text) as unknown,
    });
  });

  it('should handle deep nesting without overflowing the stack', () => {
    const depth = 200_000;

    const found = findJsonValue(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    expect(found?.end).toBe(2 * depth);
    expect(findJsonValue('['.repeat(depth))).toBeUndefined();
    expect(findJsonValue(`${'{"a":'.repeat(depth)}1`)).toBeUndefined();
  });

  it('should find a value after a long run of unclosed brackets', () => {
    const text = `${'[{'.repeat(50_000)} then {"ok": true}`;

    expect(findJsonValue(text)?.value).toEqual({ ok: true });
  });

  it('should agree with a brute-force search on token soup', () => {
    fc.assert(
      fc.property(tokenSoup, (text) => {
        expect(findJsonValue(text)).toEqual(bruteForce(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('should agree with a brute-force search on damaged JSON and arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(damagedJson, fc.string({ maxLength: 30 })), (text) => {
        expect(findJsonValue(text)).toEqual(bruteForce(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('should find any object or array written after bracket-free prose', () => {
    const prose = fc.string().map((text) => text.replace(/[[{]/g, ''));
    const container = fc.oneof(
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.array(fc.jsonValue()),
    );
    fc.assert(
      fc.property(prose, container, fc.string(), (before, value, after) => {
        const json = JSON.stringify(value);
        expect(findJsonValue(before + json + after)).toEqual({
          start: before.length,
          end: before.length + json.length,
          value: JSON.parse(json) as unknown,
        });
      }),
    );
  });
});
