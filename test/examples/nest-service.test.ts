import type { INestApplication } from '@nestjs/common';

import type { AgentAnswer, PendingApproval } from '../../examples/nest-service/agent-answer.js';
import { ask, createApp, demoQuestions, run } from '../../examples/nest-service/main.js';
import type { Refund } from '../../examples/nest-service/refund-desk.js';
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

  describe('approvals over HTTP', () => {
    let app: INestApplication;
    let url: string;

    beforeEach(async () => {
      app = await createApp({ offline: true });
      await app.listen(0, '127.0.0.1');
      url = await app.getUrl();
    });

    afterEach(async () => {
      await app.close();
    });

    async function post(
      path: string,
      body: unknown,
      customerId = 'c-77',
    ): Promise<{ status: number; body: unknown }> {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-customer-id': customerId },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    }

    async function getJson<T>(path: string): Promise<T> {
      return (await (await fetch(`${url}${path}`)).json()) as T;
    }

    /** Asks for a refund of `amount` dollars on A-1042 and expects the agent to pause for it. */
    async function pausedRefund(amount: number): Promise<PendingApproval> {
      const asked = await post('/agent', {
        message: `Please refund order A-1042, I was charged $${amount} twice.`,
      });
      expect(asked.status).toBe(202);
      return asked.body as PendingApproval;
    }

    function decide(stateId: string, decisions: unknown) {
      return post(`/agent/approvals/${stateId}`, { decisions }, 'approver-1');
    }

    it('should answer 202 with the pending refund, run it once approved, and refuse a second approval', async () => {
      const paused = await pausedRefund(120);
      expect(paused.status).toBe('pending');
      expect(paused.pending).toHaveLength(1);
      const [call] = paused.pending;
      expect(call?.tool).toBe('refund_order');
      expect(call?.params).toMatchObject({ orderId: 'A-1042', amount: 120 });
      expect(call?.reason).toContain("needs a person's approval");

      // While the agent waits, the service goes on serving: another customer is answered, and nothing was refunded.
      const other = await ask(url, { customerId: 'c-1', message: 'How do I reset my password?' });
      expect(other.reply.resolution).toBe('answered');
      expect(await getJson<Refund[]>('/refunds')).toEqual([]);

      const approved = await decide(paused.stateId, [{ callId: call?.callId, approved: true }]);
      expect(approved.status).toBe(200);
      const answer = approved.body as AgentAnswer;
      expect(answer.status).toBe('answered');
      expect(answer.reply.resolution).toBe('refunded');
      expect(answer.refunds).toMatchObject([{ orderId: 'A-1042', amount: 120 }]);
      expect(answer.reply.reply).toContain(`refund ${answer.refunds[0]?.id}`);
      expect(answer.toolCalls.map((summary) => [summary.tool, summary.outcome])).toEqual([
        ['refund_order', 'success'],
      ]);
      expect(answer.turns).toBe(2);
      expect(await getJson<Refund[]>('/refunds')).toEqual(answer.refunds);

      const again = await decide(paused.stateId, [{ callId: call?.callId, approved: true }]);
      expect(again.status).toBe(404);
      expect((again.body as { message: string }).message).toMatch(
        /No paused request waits under .*already resumed.*Fix:/,
      );
      expect(await getJson<Refund[]>('/refunds')).toHaveLength(1);
    });

    it('should tell the customer why when the approver rejects the refund, refunding nothing', async () => {
      const paused = await pausedRefund(480);
      const why = 'Refunds over $400 need a manager; I opened a case for one.';

      const rejected = await decide(paused.stateId, [
        { callId: paused.pending[0]?.callId, approved: false, message: why },
      ]);

      expect(rejected.status).toBe(200);
      const answer = rejected.body as AgentAnswer;
      expect(answer.reply.resolution).toBe('refund_declined');
      expect(answer.reply.reply).toContain(why);
      expect(answer.toolCalls.map((summary) => summary.outcome)).toEqual(['denied']);
      expect(answer.refunds).toEqual([]);
      expect(await getJson<Refund[]>('/refunds')).toEqual([]);
    });

    it('should refund below the approval limit at once, with 200', async () => {
      const asked = await post('/agent', {
        message: 'Please refund order B-2001: $30 for a late delivery.',
      });

      expect(asked.status).toBe(200);
      expect((asked.body as AgentAnswer).refunds).toMatchObject([
        { orderId: 'B-2001', amount: 30 },
      ]);
      expect(await getJson<Refund[]>('/refunds')).toHaveLength(1);
    });

    it('should refuse malformed decisions with 400, leaving the evaluation to resume', async () => {
      const paused = await pausedRefund(200);
      const callId = paused.pending[0]?.callId;

      const statuses = [
        (await post(`/agent/approvals/${paused.stateId}`, {})).status,
        (await decide(paused.stateId, [])).status,
        (await decide(paused.stateId, 'approve')).status,
        (await decide(paused.stateId, [{ callId, approved: 'yes' }])).status,
        (await decide(paused.stateId, [{ callId, approved: true, amount: 1 }])).status,
        (await decide(paused.stateId, [{ approved: true }])).status,
        (await decide('not-a-state-id', [{ callId, approved: true }])).status,
      ];

      expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 400]);
      expect(await getJson<Refund[]>('/refunds')).toEqual([]);
      const approved = await decide(paused.stateId, [{ callId, approved: true }]);
      expect(approved.status).toBe(200);
    });

    it('should answer 409 with the reason for a decision naming no pending call, then accept corrected decisions', async () => {
      const paused = await pausedRefund(90);
      const callId = paused.pending[0]?.callId ?? '';

      const wrong = await decide(paused.stateId, [{ callId: 'call_9_9', approved: true }]);

      expect(wrong.status).toBe(409);
      const refusal = wrong.body as { message: string; stateId: string };
      expect(refusal.message).toContain(
        `the decision for call 'call_9_9' names no pending call (pending: ${callId}).`,
      );
      expect(refusal.message).toContain('Fix: Decide only the calls listed in state.pending');
      expect(refusal.stateId).toBe(paused.stateId);
      expect(await getJson<Refund[]>('/refunds')).toEqual([]);

      const corrected = await decide(paused.stateId, [{ callId, approved: true }]);
      expect(corrected.status).toBe(200);
      expect((corrected.body as AgentAnswer).refunds).toMatchObject([{ amount: 90 }]);
    });

    it('should resume a state once when two approvals race', async () => {
      const paused = await pausedRefund(150);
      const decisions = [{ callId: paused.pending[0]?.callId, approved: true }];

      const answers = await Promise.all([
        decide(paused.stateId, decisions),
        decide(paused.stateId, decisions),
      ]);

      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404]);
      expect(await getJson<Refund[]>('/refunds')).toHaveLength(1);
    });

    it('should refuse GET /chat/resume for malformed decisions (400) and unknown states (404)', async () => {
      const stateId = '6f1c1f9e-2f6a-4c1e-9a51-1d1f0c6f6a11';
      const decisions = encodeURIComponent(JSON.stringify([{ callId: 'c1', approved: true }]));
      const queries = [
        `stateId=${stateId}`,
        `stateId=${stateId}&decisions=not-json`,
        `stateId=${stateId}&decisions=${encodeURIComponent('[{"callId":"c1","approved":"yes"}]')}`,
        `stateId=${stateId}&decisions=${encodeURIComponent('[]')}`,
        `stateId=nope&decisions=${decisions}`,
        `stateId=${stateId}&decisions=${decisions}&extra=1`,
      ];

      const statuses = await Promise.all(
        queries.map(async (query) => (await fetch(`${url}/chat/resume?${query}`)).status),
      );
      const unknown = await fetch(`${url}/chat/resume?stateId=${stateId}&decisions=${decisions}`);

      expect(statuses).toEqual([400, 400, 400, 400, 400, 400]);
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { message: string }).message).toContain(
        `No paused chat waits under ${stateId}`,
      );
    });
  });
});
