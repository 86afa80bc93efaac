import fc from 'fast-check';

import { PersistentList } from '../../src/session/persistent-list.js';

type Step =
  | { op: 'push'; count: number }
  | { op: 'fork' }
  | { op: 'switch'; to: number }
  | { op: 'filterOdd' };

describe(PersistentList, () => {
  describe('.push', () => {
    it('should keep every earlier version unchanged', () => {
      const empty = PersistentList.empty<number>();
      const one = empty.push(1);
      const two = one.push(2);
      expect(empty.toArray()).toEqual([]);
      expect(one.toArray()).toEqual([1]);
      expect(two.toArray()).toEqual([1, 2]);
    });

    it('should not let two versions appending to a shared tail see each other’s items', () => {
      const base = PersistentList.from([1, 2, 3]);
      const a = base.push(4);
      const b = base.push(40);
      const c = a.push(5);
      expect(a.toArray()).toEqual([1, 2, 3, 4]);
      expect(b.toArray()).toEqual([1, 2, 3, 40]);
      expect(c.toArray()).toEqual([1, 2, 3, 4, 5]);
      expect(base.toArray()).toEqual([1, 2, 3]);
    });

    it('should hold a million items with correct indexing across chunks', () => {
      let list = PersistentList.empty<number>();
      for (let i = 0; i < 1_000_000; i++) list = list.push(i);
      expect(list.size).toBe(1_000_000);
      expect(list.get(0)).toBe(0);
      expect(list.get(511)).toBe(511);
      expect(list.get(512)).toBe(512);
      expect(list.get(999_999)).toBe(999_999);
      expect(list.get(1_000_000)).toBeUndefined();
      expect(list.last()).toBe(999_999);
    });
  });

  it('should behave like an array under any interleaving of versions, across chunk boundaries', () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      { weight: 4, arbitrary: fc.nat(700).map((count) => ({ op: 'push' as const, count })) },
      { weight: 1, arbitrary: fc.constant({ op: 'fork' as const }) },
      { weight: 1, arbitrary: fc.nat(20).map((to) => ({ op: 'switch' as const, to })) },
      { weight: 1, arbitrary: fc.constant({ op: 'filterOdd' as const }) },
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        let next = 0;
        const versions: [PersistentList<number>, number[]][] = [[PersistentList.empty(), []]];
        let current = 0;
        for (const s of steps) {
          const [list, model] = versions[current]!;
          if (s.op === 'push') {
            const values = Array.from({ length: s.count }, () => next++);
            versions[current] = [list.concat(values), [...model, ...values]];
          } else if (s.op === 'fork') versions.push([list, model]);
          else if (s.op === 'switch') current = s.to % versions.length;
          else
            versions[current] = [list.filter((n) => n % 2 === 0), model.filter((n) => n % 2 === 0)];
        }
        for (const [list, model] of versions) {
          expect(list.toArray()).toEqual(model);
          expect(list.size).toBe(model.length);
          expect(list.last()).toBe(model[model.length - 1]);
          for (let i = 0; i < model.length; i += 97) expect(list.get(i)).toBe(model[i]);
        }
      }),
      { numRuns: 200 },
    );
  });

  describe('.toArray', () => {
    it('should return the same frozen array until the list changes', () => {
      const list = PersistentList.from(['a', 'b']);
      expect(list.toArray()).toBe(list.toArray());
      expect(Object.isFrozen(list.toArray())).toBe(true);
    });
  });

  describe('.filter', () => {
    it('should return the list itself when nothing is removed', () => {
      const list = PersistentList.from([2, 4]);
      expect(list.filter((n) => n > 0)).toBe(list);
      expect(list.filter((n) => n > 2).toArray()).toEqual([4]);
    });
  });
});
