import { ask, createApp, demoQuestions, run } from '../../examples/nest-service/main.js';
import { SupportDeskSection } from '../../examples/nest-service/support-desk-section.js';
import type { Ticket } from '../../examples/nest-service/ticket-desk.js';
import { latch } from '../support/deferred.js';

describe('examples/nest-service', () => {
  it('should answer the demo customers over HTTP and print what the agent did', async () => {
    const lines: string[] = [];
    const { answers, tickets } = await run((line) => lines.push(line), { offline: true });
    const output = lines.join('\n');

    expect(output).toMatch(
      /^Support agent listening on http:\/\/127\.0\.0\.1:\d+ \(offline scripted model\)/,
    );
    expect(output).toContain(
      '  tool search_knowledge_base {"query":"reset password"} → success: Found 1 article(s): kb-101.',
    );
    expect(output).toContain(
      '  tool search_knowledge_base {"query":"csv export crashes error"} → success: No article matches \'csv export crashes error\'.',
    );
    expect(output).toMatch(
      /tool open_ticket \{"summary":"Export broken","priority":"urgent"\} → failure: Tool validation failed: .*summary.*priority/,
    );
    expect(output).toContain('→ success: Opened ticket T-1001 for customer c-2002.');
    expect(output).toMatch(/ {2}4 turns, 3 tool calls, 2237 input \+ 154 output tokens, \d+ ms/);
    expect(output).toMatch(/ {2}2 turns, 1 tool call, 1008 input \+ 87 output tokens, \d+ ms/);
    expect(output).toContain(
      'GET /tickets: 1 ticket(s)\n  T-1001 for c-2002 [high] The CSV export',
    );

    expect(answers.map((answer) => answer.reply.resolution)).toEqual([
      'answered',
      'ticket_opened',
      'answered',
    ]);
    expect(answers[0]?.reply.articleIds).toEqual(['kb-101']);
    expect(answers[2]?.reply.articleIds).toEqual(['kb-204']);
    expect(tickets).toEqual([
      {
        id: 'T-1001',
        customerId: 'c-2002',
        summary: demoQuestions[1]?.message,
        priority: 'high',
      },
    ]);
  });

  describe('POST /agent', () => {
    it("should file each concurrent request's ticket for that request's customer", async () => {
      const customers = ['c-11', 'c-12', 'c-13', 'c-14', 'c-15', 'c-16'];
      // Holds every request in its first tool call until all six are there: they are in flight together.
      const gate = latch(customers.length);
      const search = Object.getOwnPropertyDescriptor(SupportDeskSection.prototype, 'search')!;
      const original = search.value as SupportDeskSection['search'];
      Object.defineProperty(SupportDeskSection.prototype, 'search', {
        ...search,
        value: async function (this: SupportDeskSection, ...args: Parameters<typeof original>) {
          await gate.arrive();
          return original.apply(this, args);
        },
      });
      const app = await createApp({ offline: true });
      await app.listen(0, '127.0.0.1');
      const url = await app.getUrl();
      try {
        const answers = await Promise.all(
          customers.map((customerId) =>
            ask(url, { customerId, message: `Webhooks stopped firing for ${customerId} today.` }),
          ),
        );

        answers.forEach((answer, index) => {
          expect(answer.tickets.map((ticket) => ticket.customerId)).toEqual([customers[index]]);
          expect(answer.tickets[0]?.summary).toBe(
            `Webhooks stopped firing for ${customers[index]} today.`,
          );
        });
        // The desk the controller reads is the one the agent's section wrote to.
        const listed = (await (await fetch(`${url}/tickets`)).json()) as Ticket[];
        expect(listed.map((ticket) => ticket.customerId).sort()).toEqual(customers);
        expect(new Set(listed.map((ticket) => ticket.id)).size).toBe(customers.length);
      } finally {
        await app.close();
        Object.defineProperty(SupportDeskSection.prototype, 'search', search);
      }
    });

    it('should reject a body without a message before running the agent', async () => {
      const app = await createApp({ offline: true });
      await app.listen(0, '127.0.0.1');
      try {
        const response = await fetch(`${await app.getUrl()}/agent`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-customer-id': 'c-1' },
          body: JSON.stringify({ question: 'wrong field' }),
        });

        expect(response.status).toBe(400);
        const listed = (await (await fetch(`${await app.getUrl()}/tickets`)).json()) as Ticket[];
        expect(listed).toEqual([]);
      } finally {
        await app.close();
      }
    });
  });
});
