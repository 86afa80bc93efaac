import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { TokenUsage } from '../../src/provider/token-usage.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { ToolResult } from '../../src/tools/tool-result.js';

class LookupParams {
  entityId = 'e-1';
}
class LookupResult {
  entityId = 'e-1';
  url = 'https://example.test/e-1';
}

const context = {
  promptName: 'examples/tooling:tools_overview',
  promptNs: 'examples/tooling',
  promptKey: 'tools_overview',
  adapter: 'openai',
};

describe(ToolInvoked, () => {
  it('should carry the call, its result and the message the provider saw', () => {
    const result = ToolResult.ok(new LookupResult(), 'Fetched entity e-1.');
    const event = new ToolInvoked({
      ...context,
      name: 'lookup_entity',
      callId: 'call_1',
      params: new LookupParams(),
      rawArguments: '{"entityId":"e-1"}',
      result,
      durationMs: 12,
      usage: new TokenUsage({ inputTokens: 3 }),
      sessionId: 's-1',
      evaluationId: 'ev-1',
    });

    expect(event.name).toBe('lookup_entity');
    expect(event.callId).toBe('call_1');
    expect(event.params).toBeInstanceOf(LookupParams);
    expect(event.rawArguments).toBe('{"entityId":"e-1"}');
    expect(event.result).toBe(result);
    expect(event.renderedMessage).toBe(result.toModelText());
    expect(event.renderedMessage).toBe(
      'Fetched entity e-1.\n\n{"entityId":"e-1","url":"https://example.test/e-1"}',
    );
    expect(event.native).toBe(false);
    expect(event.outcome).toBe('success');
    expect(event.durationMs).toBe(12);
  });

  it('should keep an explicitly rendered message exactly', () => {
    const event = new ToolInvoked({
      ...context,
      name: 'web_search',
      result: ToolResult.ok('results'),
      renderedMessage: 'provider-side output',
      native: true,
    });
    expect(event.renderedMessage).toBe('provider-side output');
    expect(event.native).toBe(true);
  });

  it('should record a failed parse with the rejected raw arguments and no params', () => {
    const event = new ToolInvoked({
      ...context,
      name: 'lookup_entity',
      rawArguments: '{"entityId": 42}',
      result: ToolResult.error('Tool validation failed: entityId: must be a string'),
    });
    expect(event.params).toBeUndefined();
    expect(event.rawArguments).toBe('{"entityId": 42}');
    expect(event.outcome).toBe('failure');
  });

  it("should allow the 'unknown' outcome for an interrupted call", () => {
    const event = new ToolInvoked({
      ...context,
      name: 'slow',
      result: ToolResult.error('Deadline expired.'),
      outcome: 'unknown',
    });
    expect(event.outcome).toBe('unknown');
  });

  it('should reject an outcome that contradicts the result', () => {
    expect(
      () =>
        new ToolInvoked({
          ...context,
          name: 'x',
          result: ToolResult.error('no'),
          outcome: 'success',
        }),
    ).toThrow(ConfigurationError);
  });

  it('should reject a result that is not a ToolResult', () => {
    expect(
      () => new ToolInvoked({ ...context, name: 'x', result: { message: 'hi' } as never }),
    ).toThrow(/must be a ToolResult/);
  });

  it('should get a unique id and a creation time, and be frozen', () => {
    const before = Date.now();
    const a = new ToolInvoked({ ...context, name: 'x', result: ToolResult.ok(null) });
    const b = new ToolInvoked({ ...context, name: 'x', result: ToolResult.ok(null) });
    expect(a.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.eventId).not.toBe(b.eventId);
    expect(a.createdAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(Object.isFrozen(a)).toBe(true);
    expect(() => {
      (a as { name: string }).name = 'changed';
    }).toThrow(TypeError);
  });

  it('should keep a given id and creation time, for replays', () => {
    const createdAt = new Date('2026-01-01T00:00:00Z');
    const event = new ToolInvoked({
      ...context,
      name: 'x',
      result: ToolResult.ok(null),
      eventId: 'fixed',
      createdAt,
    });
    expect(event.eventId).toBe('fixed');
    expect(event.createdAt).toEqual(createdAt);
    expect(event.createdAt).not.toBe(createdAt);
  });
});
