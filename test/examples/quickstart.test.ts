import { EntityAnswer, run } from '../../examples/quickstart/main.js';
import { LookupResult } from '../../examples/quickstart/entity-store.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';

describe('examples/quickstart', () => {
  it('should recover from a rejected call and return the structured answer', async () => {
    const lines: string[] = [];
    const { response, session } = await run((line) => lines.push(line));
    const output = lines.join('\n');

    expect(output).toContain('  | ## 1. Guidance (guidance)');
    expect(output).toMatch(
      /tool lookup_entity\(\{"entityId":"ACME 42","verbose":true\}\) → failure/,
    );
    expect(output).toContain('Tool validation failed: verbose: unknown field');
    expect(output).toContain(
      'Done in 3 turns, 2 tool calls (1 succeeded), 1471 input + 103 output tokens',
    );

    expect(response.output).toBeInstanceOf(EntityAnswer);
    expect(response.output).toMatchObject({
      entityId: 'acme-42',
      documentUrl: 'https://docs.example.test/acme-42',
    });
    const calls = session.slice(ToolInvoked).all();
    expect(calls.map((event) => event.outcome)).toEqual(['failure', 'success']);
    expect(session.slice(LookupResult).latest()?.related).toEqual(['acme-7']);
  });
});
