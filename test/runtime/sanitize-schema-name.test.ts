import fc from 'fast-check';

import { sanitizeSchemaName } from '../../src/provider/sanitize-schema-name.js';

describe(sanitizeSchemaName, () => {
  it.each([
    ['review_summary', 'review_summary'],
    ['Code-Review 2', 'Code-Review_2'],
    ['support/triage.v1', 'support_triage_v1'],
    ['  spaced out  ', 'spaced_out'],
    ['__private__', 'private'],
    ['-dash-', '-dash-'],
    ['résumé', 'r_sum'],
    ['emoji 🚀 prompt', 'emoji___prompt'],
  ])('should turn %j into %j', (name, expected) => {
    expect(sanitizeSchemaName(name)).toBe(expected);
  });

  it.each(['', '___', '!!!', '😀'])('should fall back on "prompt" for %j', (name) => {
    expect(sanitizeSchemaName(name)).toBe('prompt');
  });

  it('should cut long names to 64 characters without leaving a trailing underscore', () => {
    expect(sanitizeSchemaName('a'.repeat(100))).toBe('a'.repeat(64));
    expect(sanitizeSchemaName(`${'a'.repeat(63)} tail`)).toBe('a'.repeat(63));
  });

  it('should always give a short name of allowed characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (name) => {
        const result = sanitizeSchemaName(name);
        expect(result).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
        expect(result.startsWith('_') || result.endsWith('_')).toBe(false);
      }),
    );
  });
});
