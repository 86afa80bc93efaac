import {
  MarkdownSection,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { createTestRuntime } from 'affordance/testing';

/**
 * What the session records of a tool's result value: a frozen copy wherever a
 * copy is faithful (the application's own object stays unfrozen), the value
 * itself otherwise; and the text the model reads for it.
 */
async function recordValue(value: unknown): Promise<ToolInvoked> {
  const tool = new ToolDefinition({
    name: 'answer',
    description: 'Answers with the value under test.',
    handler: () => ToolResult.ok(value, 'Here.'),
  });
  const { evaluate } = createTestRuntime({
    script: [{ toolCalls: [{ name: 'answer', arguments: {} }] }, { text: 'done' }],
  });
  const prompt = new Prompt({
    ns: 'test',
    key: 'copy',
    sections: [new MarkdownSection({ key: 'answer', title: 'Answer', tools: [tool] })],
  });
  const session = new Session();
  await evaluate(prompt, { session });
  const invoked = session.slice(ToolInvoked).latest();
  if (invoked === undefined) throw new Error('no ToolInvoked recorded');
  expect(invoked.outcome).toBe('success');
  return invoked;
}

describe('A result value as the session records it', () => {
  it('copies a plain object, keys Object.prototype also has kept as own data, and freezes only the copy', async () => {
    const value = JSON.parse(
      '{"constructor":"c","toString":"t","hasOwnProperty":1,"__proto__":{"nested":true},"n":2}',
    ) as Record<string, unknown>;
    const invoked = await recordValue(value);
    const copy = invoked.result.value as Record<string, unknown>;
    expect(copy).not.toBe(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Reflect.ownKeys(copy)).toEqual([
      'constructor',
      'toString',
      'hasOwnProperty',
      '__proto__',
      'n',
    ]);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ nested: true });
    expect(Object.getOwnPropertyDescriptor(copy, 'toString')?.value).toBe('t');
    expect(Object.isFrozen(copy)).toBe(true);
    expect(Object.isFrozen(copy['__proto__'])).toBe(true);
    expect(Object.isFrozen(value)).toBe(false);
    expect(Object.isFrozen(Object.getOwnPropertyDescriptor(value, '__proto__')?.value)).toBe(false);
    expect(invoked.renderedMessage).toBe(
      'Here.\n\n{"constructor":"c","toString":"t","hasOwnProperty":1,"__proto__":{"nested":true},"n":2}',
    );
  });

  it('never runs a setter that code added to Object.prototype for a key the value has', async () => {
    const assigned: unknown[] = [];
    Object.defineProperty(Object.prototype, 'affordanceCopyProbe', {
      configurable: true,
      set(item: unknown) {
        assigned.push(item);
      },
    });
    try {
      const value: Record<string, unknown> = {};
      Object.defineProperty(value, 'affordanceCopyProbe', {
        value: 'own',
        enumerable: true,
        writable: true,
        configurable: true,
      });
      const invoked = await recordValue(value);
      const copy = invoked.result.value as Record<string, unknown>;
      expect(copy).not.toBe(value);
      expect(Object.getOwnPropertyDescriptor(copy, 'affordanceCopyProbe')?.value).toBe('own');
      expect(assigned).toEqual([]);
    } finally {
      delete (Object.prototype as Record<string, unknown>)['affordanceCopyProbe'];
    }
  });

  it('copies an object without a prototype, a __proto__ key included, keeping it prototype-free', async () => {
    const value = Object.create(null) as Record<string, unknown>;
    value['__proto__'] = { inner: [1, 2] };
    value['plain'] = 'yes';
    const invoked = await recordValue(value);
    const copy = invoked.result.value as Record<string, unknown>;
    expect(copy).not.toBe(value);
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(Object.keys(copy)).toEqual(['__proto__', 'plain']);
    expect(copy['__proto__']).toEqual({ inner: [1, 2] });
    expect(copy['__proto__']).not.toBe(value['__proto__']);
    expect(Object.isFrozen(value)).toBe(false);
  });

  it('copies a class instance with its prototype, and keeps shared children and cycles', async () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
      get sum(): number {
        return this.x + this.y;
      }
    }
    const shared = { tag: 'same' };
    const value: Record<string, unknown> = { point: new Point(1, 2), a: shared, b: shared };
    value['self'] = value;
    const invoked = await recordValue(value);
    const copy = invoked.result.value as Record<string, unknown>;
    expect(copy).not.toBe(value);
    expect(copy['point']).toBeInstanceOf(Point);
    expect((copy['point'] as Point).sum).toBe(3);
    expect(copy['point']).not.toBe(value['point']);
    expect(copy['a']).toBe(copy['b']);
    expect(copy['a']).not.toBe(shared);
    expect(copy['self']).toBe(copy);
    expect(Object.isFrozen(copy['point'])).toBe(true);
    expect(Object.isFrozen(shared)).toBe(false);
  });

  it('copies a Proxy from its property descriptors, never through its get trap', async () => {
    const reads: PropertyKey[] = [];
    const value = new Proxy(
      { a: 1, b: 'two' },
      {
        get(target, key, receiver) {
          reads.push(key);
          return Reflect.get(target, key, receiver) as unknown;
        },
      },
    );
    const invoked = await recordValue(value);
    expect(invoked.result.value).not.toBe(value);
    expect(invoked.result.value).toEqual({ a: 1, b: 'two' });
    // Each field read once: by rendering the model's text, not by the copy.
    expect(reads.filter((key) => key === 'a' || key === 'b')).toEqual(['a', 'b']);
    expect(invoked.renderedMessage).toBe('Here.\n\n{"a":1,"b":"two"}');
  });

  it('keeps (and freezes) an object a copy could not reproduce: an own getter', async () => {
    let reads = 0;
    const value = {
      get computed(): number {
        reads += 1;
        return 7;
      },
    };
    const invoked = await recordValue(value);
    expect(invoked.result.value).toBe(value);
    expect(Object.isFrozen(value)).toBe(true);
    // Read once, by rendering the model's text; copying and freezing read no getter.
    expect(invoked.renderedMessage).toBe('Here.\n\n{"computed":7}');
    expect(reads).toBe(1);
  });
});
