import { Session, TokenUsage, ToolInvoked, ToolResult } from 'affordance';

const context = { promptName: 'p/k', promptNs: 'p', promptKey: 'k', adapter: 'test' };

/** A result subclass that carries one more object of its own. */
class AnnotatedResult extends ToolResult {
  readonly annotations = { reviewed: ['by-test'] };
}

function record(result: ToolResult, params: unknown): ToolInvoked {
  const session = new Session();
  const event = new ToolInvoked({
    ...context,
    name: 'lookup',
    callId: 'c1',
    params,
    rawArguments: '{}',
    result,
    usage: new TokenUsage({ inputTokens: 1, outputTokens: 2 }),
  });
  expect(session.dispatch(event).ok).toBe(true);
  return event;
}

describe('A recorded ToolInvoked is frozen all the way down', () => {
  it('a ToolResult is frozen once built; a subclass is left to freeze itself', () => {
    expect(Object.isFrozen(ToolResult.ok({ id: 1 }))).toBe(true);
    expect(Object.isFrozen(ToolResult.error('no'))).toBe(true);
    expect(Object.isFrozen(new AnnotatedResult({ message: 'ok' }))).toBe(false);
  });

  it('freezes the params, the result value and the usage it holds', () => {
    const value = { entity: { tags: ['a'] } };
    const params = { filter: { ids: [1, 2] } };
    const event = record(ToolResult.ok(value, 'Found.'), params);
    expect(Object.isFrozen(event)).toBe(true);
    expect(Object.isFrozen(params.filter.ids)).toBe(true);
    expect(Object.isFrozen(value.entity.tags)).toBe(true);
    expect(Object.isFrozen(event.usage)).toBe(true);
  });

  it('freezes a ToolResult subclass and what it holds besides its value', () => {
    const result = new AnnotatedResult({ message: 'Done.', value: { list: [1] } });
    const event = record(result, undefined);
    expect(Object.isFrozen(event.result)).toBe(true);
    expect(Object.isFrozen(result.annotations.reviewed)).toBe(true);
    expect(Object.isFrozen((result.value as { list: number[] }).list)).toBe(true);
  });

  it('freezes a message that is not a string, from code without types', () => {
    const message = { text: ['not', 'a', 'string'] };
    const result = new ToolResult({ message: message as unknown as string, value: null });
    record(result, undefined);
    expect(Object.isFrozen(message.text)).toBe(true);
  });
});
