import { ToolInvoked } from 'affordance';

import { run } from '../../examples/mcp/main.js';

describe('examples/mcp', () => {
  it("serves the support desk's tools over MCP and prints what the SDK's client reads", async () => {
    const lines: string[] = [];
    const { tools, results, sessions } = await run((line) => lines.push(line));
    const output = lines.join('\n');

    expect(output).toMatch(
      /^MCP server acme-support-desk 1\.0\.0 at http:\/\/127\.0\.0\.1:\d+\/mcp/,
    );
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_knowledge_base',
      'open_ticket',
      'planning_setup_plan',
      'planning_add_step',
      'planning_update_step',
      'planning_read_plan',
    ]);
    expect(output).toContain('  open_ticket(email, subject, description, priority): ');
    expect(output).toContain('  ok: Found 1 article(s): kb-412.');
    expect(output).toMatch(
      /isError: Tool validation failed: email: .*priority: must be one of the following values: low, normal, urgent/,
    );
    expect(output).toContain('  ok: Opened ticket T-1001 for dana@example.com.');
    expect(results.map((result) => result.isError)).toEqual([false, true, false]);
    expect(
      sessions[0]
        ?.slice(ToolInvoked)
        .all()
        .map((event) => event.outcome),
    ).toEqual(['success', 'failure', 'success']);
    expect(output).toContain(
      'Recorded 3 ToolInvoked events (success, failure, success); tickets: T-1001.',
    );
  });
});
