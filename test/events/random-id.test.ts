import { randomId } from '../../src/core/random-id.js';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe(randomId, () => {
  it('should make version-4 UUIDs, all different, across many refills of its random bytes', () => {
    // 256 ids per refill: 5,000 ids span about twenty.
    const ids = Array.from({ length: 5_000 }, () => randomId());
    const malformed = ids.filter((id) => !uuidV4.test(id));
    expect(malformed).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('should use every hexadecimal digit in every free position', () => {
    const ids = Array.from({ length: 2_000 }, () => randomId());
    // Dashes at 8, 13, 18 and 23; the version digit at 14; the variant digit at 19 is one of four.
    const fixed = new Set([8, 13, 14, 18, 19, 23]);
    for (let position = 0; position < 36; position += 1) {
      if (fixed.has(position)) continue;
      const digits = new Set(ids.map((id) => id[position]));
      expect([position, digits.size]).toEqual([position, 16]);
    }
    expect(new Set(ids.map((id) => id[19]))).toEqual(new Set(['8', '9', 'a', 'b']));
  });
});
