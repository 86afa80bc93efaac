import {
  MarkdownSection,
  Prompt,
  renderToolValue,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { createTestRuntime } from 'affordance/testing';

import { toolMessages } from '../support/conversation.js';

/** Keeps its state in a private field and renders itself from it. */
class Secretive {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  render(): string {
    return `secretive: ${this.#text}`;
  }
}

/** Keeps a field out of enumeration. */
class Hidden {
  constructor(shown: string, hidden: string) {
    Object.defineProperty(this, 'shown', { value: shown, enumerable: true });
    Object.defineProperty(this, 'hidden', { value: hidden, enumerable: false });
  }
  render(): string {
    return `${(this as unknown as { hidden: string }).hidden}!`;
  }
}

class Stamp extends Date {}
class Registry extends Map<string, number> {}

/** An own getter: the copy must not call it, and must not break on it. */
function withGetter(): object {
  const value = { plain: 1 };
  Object.defineProperty(value, 'computed', { get: () => 42, enumerable: true });
  return value;
}

function deep(levels: number): object {
  let value: object = { leaf: true };
  for (let level = 0; level < levels; level += 1) value = { next: value };
  return value;
}

/** A plain DTO the application also keeps and later changes. */
class Entity {
  name = 'acme';
  tags = ['a', 'b'];
}

const zoo: [string, () => unknown][] = [
  ['an instance with a private field that renders itself', () => new Secretive('kept')],
  ['an instance with a non-enumerable field', () => new Hidden('shown', 'hidden')],
  ['a URL', () => new URL('https://example.com/a?b=c')],
  ['an object holding a URL', () => ({ link: new URL('https://example.com/x') })],
  ['a Date subclass', () => new Stamp(0)],
  ['a Map', () => new Map([['a', 1]])],
  ['a Map subclass', () => new Registry([['b', 2]])],
  ['a Set', () => new Set([1, 2])],
  ['a typed array', () => new Uint8Array([1, 2, 3])],
  ['a RegExp', () => /a+b/giu],
  ['an Error', () => new Error('as a value')],
  ['an object with an own getter', withGetter],
  ['a value 20,000 levels deep', () => deep(20_000)],
  [
    'an array with holes and an extra property',
    () => {
      const holes: number[] = [1];
      holes[2] = 3;
      return Object.assign(holes, { total: 2 });
    },
  ],
  ['a null-prototype object', () => Object.assign(Object.create(null) as object, { a: 1 })],
  [
    'a cyclic object',
    () => {
      const value: Record<string, unknown> = { name: 'loop' };
      value['self'] = value;
      return value;
    },
  ],
];

async function callReturning(value: unknown) {
  const result = ToolResult.ok(value, 'Here it is.');
  const tool = new ToolDefinition({
    name: 'give',
    description: 'Returns the value under test.',
    handler: () => result,
  });
  const prompt = new Prompt({
    ns: 'hardening',
    key: 'zoo',
    sections: [new MarkdownSection({ key: 'zoo', title: 'Zoo', template: 'Zoo.', tools: [tool] })],
  });
  const session = new Session();
  const { adapter, evaluate } = createTestRuntime({
    script: [{ toolCalls: [{ name: 'give', callId: 'c1' }] }, { text: 'done' }],
  });
  const response = await evaluate(prompt, { session });
  return { result, session, response, sent: toolMessages(adapter.requests[1])[0]?.[1] };
}

describe('The model reads exactly what the returned result renders, and the session holds a working value', () => {
  it.each(zoo)('%s', async (_label, make) => {
    const { result, session, response, sent } = await callReturning(make());
    expect(response.text).toBe('done');
    expect(sent).toBe(result.toModelText());
    const [recorded] = session.slice(ToolInvoked).all();
    expect(recorded?.renderedMessage).toBe(result.toModelText());
    // The recorded value renders the same: it is a faithful copy or the original itself.
    expect(renderToolValue(recorded?.result.value)).toBe(renderToolValue(result.value));
  });

  it('copies a plain DTO, so the application’s own object is never frozen', async () => {
    const entity = new Entity();
    const { session } = await callReturning(entity);
    expect(Object.isFrozen(entity)).toBe(false);
    entity.tags.push('c');
    const [recorded] = session.slice(ToolInvoked).all();
    expect(recorded?.result.value).toEqual(Object.assign(new Entity(), { tags: ['a', 'b'] }));
    expect(recorded?.result.value).toBeInstanceOf(Entity);
  });

  it('keeps a value it cannot copy as it is, frozen with the record', async () => {
    const secretive = new Secretive('kept');
    const { session } = await callReturning(secretive);
    const [recorded] = session.slice(ToolInvoked).all();
    expect(recorded?.result.value).toBe(secretive);
    expect(Object.isFrozen(secretive)).toBe(true);
    expect(secretive.render()).toBe('secretive: kept');
  });
});
