import { Plan } from 'affordance/planning';

import { KnowledgeBase } from '../../examples/support-desk/knowledge-base.js';
import { Resolution, run, SupportAnswer } from '../../examples/support-desk/main.js';
import { Ticket, TicketDesk, TicketPriority } from '../../examples/support-desk/ticket-desk.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { message as anthropicMessage, text, toolUse } from '../support/anthropic-payloads.js';
import { AnthropicTestServer, TEST_ANTHROPIC_KEY } from '../support/anthropic-test-server.js';
import { functionCall, message, responseBody } from '../support/openai-payloads.js';
import { OpenAITestServer } from '../support/openai-test-server.js';

describe('examples/support-desk', () => {
  it('should plan, search, recover from a rejected ticket and answer in the structured form', async () => {
    const lines: string[] = [];
    const { response, session, container } = await run((line) => lines.push(line), {});
    const output = lines.join('\n');

    expect(output).toContain(
      'Support desk on scripted model (set OPENAI_API_KEY or ANTHROPIC_API_KEY for a real API)',
    );
    expect(output).toContain(
      'Turn 1 (1210 input + 64 output tokens)\n  model: Several steps here; let me plan them.\n  > planning_setup_plan {"objective":"Unblock Dana\'s CSV export"',
    );
    expect(output).toContain(
      '  > search_knowledge_base {"query":"csv export error 500"}\n    success: Found 1 article(s): kb-412.',
    );
    expect(output).toMatch(
      /> open_ticket \{"email":"dana at example.com".*\n {4}failure: Tool validation failed: email: .*description: .*priority: must be one of the following values: low, normal, urgent/,
    );
    expect(output).toContain('    success: Opened ticket T-1001 for dana@example.com.');
    expect(output).toContain('Turn 6 (2133 input + 82 output tokens)\n  model: final answer');
    expect(output).toContain(
      "Plan:\n  Objective: Unblock Dana's CSV export\n  Status: completed\n",
    );
    expect(output).toContain(
      'Tickets:\n  Ticket T-1001 [urgent] for dana@example.com: CSV export of all orders fails with error 500',
    );
    expect(output).toContain('Answer (ticket_opened, ticket T-1001, articles kb-412):');
    expect(output).toMatch(
      /Done in 6 turns, 9 tool calls \(1 refused\), 10302 input \+ 407 output tokens, \d+ ms\./,
    );

    expect(response.output).toBeInstanceOf(SupportAnswer);
    expect(response.output).toMatchObject({
      resolution: Resolution.TicketOpened,
      ticketId: 'T-1001',
      articleIds: ['kb-412'],
    });
    const plan = session.slice(Plan).latest();
    expect(plan?.status).toBe('completed');
    expect(plan?.steps.map((step) => [step.stepId, step.status])).toEqual([
      [1, 'done'],
      [2, 'done'],
      [3, 'done'],
    ]);
    const tickets = session.slice(Ticket).all();
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({
      id: 'T-1001',
      email: 'dana@example.com',
      priority: TicketPriority.Urgent,
    });
    expect(
      container
        .get(TicketDesk)
        .all()
        .map((ticket) => ticket.id),
    ).toEqual(['T-1001']);
    expect(container.get(KnowledgeBase).queries).toEqual(['csv export error 500']);
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .filter((event) => event.name === 'open_ticket')
        .map((event) => event.outcome),
    ).toEqual(['failure', 'success']);
  });

  it('should use an OpenAI-compatible server when OPENAI_API_KEY and OPENAI_BASE_URL are set', async () => {
    const server = await OpenAITestServer.start();
    server.reply(
      { json: responseBody([functionCall('search_knowledge_base', { query: 'csv export' })]) },
      {
        json: responseBody([
          message(
            '{"resolution":"answered","articleIds":["kb-412"],"reply":"Export by date range (kb-412)."}',
          ),
        ]),
      },
    );
    try {
      const lines: string[] = [];
      const { response } = await run((line) => lines.push(line), {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: server.baseURL,
        OPENAI_MODEL: 'gpt-test',
      });

      expect(lines[0]).toBe(`Support desk on OpenAI gpt-test at ${server.baseURL}`);
      expect(lines.join('\n')).toContain(
        '  > search_knowledge_base {"query":"csv export"}\n    success: Found 1 article(s): kb-412.',
      );
      expect(response.output).toMatchObject({ resolution: 'answered', articleIds: ['kb-412'] });
      expect(server.requests).toHaveLength(2);
      expect(server.problems()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('should use the Anthropic Messages API when only ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL) are set', async () => {
    const server = await AnthropicTestServer.start();
    server.reply(
      { json: anthropicMessage([toolUse('search_knowledge_base', { query: 'csv export' })]) },
      {
        json: anthropicMessage([
          text(
            '{"resolution":"answered","articleIds":["kb-412"],"reply":"Export by date range (kb-412)."}',
          ),
        ]),
      },
    );
    try {
      const lines: string[] = [];
      const { response } = await run((line) => lines.push(line), {
        ANTHROPIC_API_KEY: TEST_ANTHROPIC_KEY,
        ANTHROPIC_BASE_URL: server.baseURL,
        ANTHROPIC_MODEL: 'claude-test',
      });

      expect(lines[0]).toBe(`Support desk on Anthropic claude-test at ${server.baseURL}`);
      expect(lines.join('\n')).toContain(
        '  > search_knowledge_base {"query":"csv export"}\n    success: Found 1 article(s): kb-412.',
      );
      expect(response.output).toMatchObject({ resolution: 'answered', articleIds: ['kb-412'] });
      expect(server.requests).toHaveLength(2);
      expect(server.requests[0]?.body['model']).toBe('claude-test');
      expect(server.problems()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
