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

  it('should freeze every object of a large graph with cycles and shared children, once each', () => {
    // More objects than a small walk tracks in a list: the walk switches to a set part-way.
    interface Node {
      id: number;
      next?: Node;
      shared: { hits: number[] };
      peers: Node[];
    }
    const shared = { hits: [1, 2] };
    const nodes: Node[] = Array.from({ length: 60 }, (_, id) => ({ id, shared, peers: [] }));
    nodes.forEach((node, id) => {
      node.next = nodes[(id + 1) % nodes.length] as Node;
      node.peers.push(nodes[(id * 7) % nodes.length] as Node, node);
    });
    const root = { nodes, meta: new Map([['first', nodes[0]]]), tags: new Set([shared]) };

    expect(deepFreeze(root)).toBe(root);

    const unfrozen = [
      root,
      root.nodes,
      shared,
      shared.hits,
      ...nodes,
      ...nodes.map((n) => n.peers),
    ].filter((object) => !Object.isFrozen(object));
    expect(unfrozen).toEqual([]);
    // Frozen all the way down once, a second freeze of the graph or of a part of it is a no-op.
    expect(deepFreeze(root)).toBe(root);
    expect(deepFreeze(nodes[30])).toBe(nodes[30]);
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
