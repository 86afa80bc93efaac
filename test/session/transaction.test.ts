import type { Snapshotable } from '../../src/session/snapshotable.js';
import { transaction } from '../../src/session/transaction.js';

class Box implements Snapshotable<number> {
  value = 0;
  restores = 0;
  snapshot(): number {
    return this.value;
  }
  restore(snapshot: number): void {
    this.restores++;
    this.value = snapshot;
  }
}

class BrokenBox extends Box {
  override restore(): void {
    throw new Error('cannot restore');
  }
}

describe('transaction', () => {
  it('should restore every participant when the function throws', () => {
    const a = new Box();
    const b = new Box();
    expect(() =>
      transaction([a, b], () => {
        a.value = 1;
        b.value = 2;
        throw new Error('fail');
      }),
    ).toThrow('fail');
    expect([a.value, b.value]).toEqual([0, 0]);
  });

  it('should leave participants alone when the function succeeds', async () => {
    const a = new Box();
    const result = await transaction([a], async () => {
      a.value = 5;
      await Promise.resolve();
      return 'done';
    });
    expect(result).toBe('done');
    expect(a.value).toBe(5);
    expect(a.restores).toBe(0);
  });

  it('should roll back when rollbackIf throws, and surface that error', () => {
    const a = new Box();
    expect(() =>
      transaction(
        [a],
        () => {
          a.value = 3;
          return 1;
        },
        {
          rollbackIf: () => {
            throw new Error('predicate broke');
          },
        },
      ),
    ).toThrow('predicate broke');
    expect(a.value).toBe(0);
  });

  it('should restore the others and report both errors when a participant cannot be restored', () => {
    const good = new Box();
    const broken = new BrokenBox();
    const failure = new Error('fail');
    let thrown: unknown;
    try {
      transaction([good, broken], () => {
        good.value = 1;
        throw failure;
      });
    } catch (error) {
      thrown = error;
    }
    expect(good.value).toBe(0);
    expect(thrown).toBeInstanceOf(AggregateError);
    const errors = (thrown as AggregateError).errors as Error[];
    expect(errors[0]).toBe(failure);
    expect(errors[1]?.message).toBe('cannot restore');
  });
});
