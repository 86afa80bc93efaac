import { deepFreeze } from '../../src/core/deep-freeze.js';

class Step {
  constructor(
    readonly title: string,
    readonly tags: string[],
  ) {}
}
class Plan {
  steps: Step[] = [];
  meta = new Map<string, { note: string }>();
}

describe('deepFreeze', () => {
  it('should freeze nested objects, arrays and map values', () => {
    const plan = new Plan();
    plan.steps.push(new Step('a', ['x']));
    plan.meta.set('k', { note: 'n' });

    deepFreeze(plan);

    expect(Object.isFrozen(plan)).toBe(true);
    expect(Object.isFrozen(plan.steps)).toBe(true);
    expect(Object.isFrozen(plan.steps[0])).toBe(true);
    expect(Object.isFrozen(plan.steps[0]?.tags)).toBe(true);
    expect(Object.isFrozen(plan.meta.get('k'))).toBe(true);
    expect(() => plan.steps.push(new Step('b', []))).toThrow(TypeError);
  });

  it('should handle cycles', () => {
    const a: { self?: unknown } = {};
    a.self = a;
    expect(deepFreeze(a)).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
  });

  it('should leave classes, functions and binary buffers alone', () => {
    class Marker {}
    const bytes = new Uint8Array([1, 2]);
    const value = { type: Marker, bytes, fn: () => 1 };
    deepFreeze(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(Marker)).toBe(false);
    bytes[0] = 9;
    expect(bytes[0]).toBe(9);
  });

  it('should freeze the inside of an object that was only frozen shallowly', () => {
    const inner = { n: 1 };
    const outer = Object.freeze({ inner });
    deepFreeze(outer);
    expect(Object.isFrozen(inner)).toBe(true);
  });

  it('should return primitives unchanged', () => {
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBeNull();
  });
});
