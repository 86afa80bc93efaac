import { IsEmail, IsIn, IsString, MinLength } from 'class-validator';
import { inject, injectable } from 'inversify';

import { Describe } from '../../src/decorators/describe.js';
import { Section } from '../../src/decorators/section.js';
import { Tool } from '../../src/decorators/tool.js';
import { PromptExecuted } from '../../src/runtime/events/prompt-executed.js';
import { PromptRendered } from '../../src/runtime/events/prompt-rendered.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { Prompt } from '../../src/prompt/prompt.js';
import { Session } from '../../src/session/session.js';
import { createTestRuntime } from '../../src/testing/create-test-runtime.js';
import { ToolContext } from '../../src/tools/tool-context.js';
import { ToolResult } from '../../src/tools/tool-result.js';

class OpenTicketParams {
  @Describe('Customer email') @IsEmail() email!: string;
  @Describe('What went wrong') @IsString() @MinLength(10) summary!: string;
  @IsIn(['low', 'high']) priority!: string;
}

class Ticket {
  id!: string;
  email!: string;
  priority!: string;
}

class TriageAnswer {
  @IsString() ticketId!: string;
  @IsString() reply!: string;
}

/** An application service the section injects (one per application). */
@injectable()
class TicketStore {
  readonly tickets: Ticket[] = [];
  open(params: OpenTicketParams): Ticket {
    const ticket = Object.assign(new Ticket(), {
      id: `T-${this.tickets.length + 1}`,
      email: params.email,
      priority: params.priority,
    });
    this.tickets.push(ticket);
    return ticket;
  }
}

@Section({
  key: 'triage',
  title: 'Triage',
  template: 'Open a ticket for every problem the customer reports.',
})
class TriageSection {
  constructor(
    @inject(TicketStore) private readonly store: TicketStore,
    @inject(ToolContext) private readonly context: ToolContext,
  ) {}

  @Tool({ name: 'open_ticket', description: 'Open a support ticket.', result: Ticket })
  open(params: OpenTicketParams, context: ToolContext): ToolResult<Ticket> {
    if (context !== this.context) throw new Error('the injected context is not the call context');
    const ticket = this.store.open(params);
    return ToolResult.ok(ticket, `Opened ${ticket.id}.`);
  }
}

describe('a seed-like agent, end to end', () => {
  it('should recover from bad arguments, use the injected service and record everything in the session', async () => {
    const { container, evaluate } = createTestRuntime({
      configure: (c) => c.bind(TicketStore).toSelf().inSingletonScope(),
      script: [
        {
          toolCalls: [
            {
              name: 'open_ticket',
              arguments: { email: 'not-an-email', summary: 'short', priority: 'urgent' },
            },
          ],
        },
        {
          expect: (request) => {
            const last = request.messages.at(-1);
            expect(last?.role === 'tool' ? last.content : '').toMatch(
              /^Tool validation failed: email: .*summary: .*priority: /,
            );
          },
          toolCalls: [
            {
              name: 'open_ticket',
              arguments: {
                email: 'ada@example.test',
                summary: 'Invoice shows the wrong VAT rate.',
                priority: 'high',
              },
            },
          ],
        },
        { text: '```json\n{"ticketId":"T-1","reply":"We opened T-1 for the VAT problem."}\n```' },
      ],
    });
    const prompt = new Prompt({
      ns: 'support',
      key: 'triage',
      sections: [TriageSection],
      output: TriageAnswer,
    });
    const session = new Session();

    const response = await evaluate(prompt, {
      session,
      input: 'My invoice has the wrong VAT.',
    });

    expect(response.output).toEqual(
      Object.assign(new TriageAnswer(), {
        ticketId: 'T-1',
        reply: 'We opened T-1 for the VAT problem.',
      }),
    );
    expect(container.get(TicketStore).tickets.map((t) => t.id)).toEqual(['T-1']);
    const invoked = session.slice(ToolInvoked).all();
    expect(invoked.map((e) => [e.name, e.outcome])).toEqual([
      ['open_ticket', 'failure'],
      ['open_ticket', 'success'],
    ]);
    expect(invoked[0]?.params).toBeUndefined();
    expect(invoked[0]?.rawArguments).toBe(
      '{"email":"not-an-email","summary":"short","priority":"urgent"}',
    );
    expect(invoked[1]?.renderedMessage).toBe(
      'Opened T-1.\n\n{"id":"T-1","email":"ada@example.test","priority":"high"}',
    );
    expect(session.slice(Ticket).all()).toEqual([container.get(TicketStore).tickets[0]]);
    expect(session.slice(PromptRendered).all()).toHaveLength(1);
    expect(session.slice(PromptExecuted).latest()?.result.output).toEqual(response.output);
  });
});

describe('a tool returning an object its service still holds', () => {
  it('should record a copy, leaving the service free to change its own object', async () => {
    const { container, evaluate } = createTestRuntime({
      configure: (c) => c.bind(TicketStore).toSelf().inSingletonScope(),
      script: [
        {
          toolCalls: [
            {
              name: 'open_ticket',
              arguments: {
                email: 'ada@example.test',
                summary: 'Invoice shows the wrong VAT.',
                priority: 'low',
              },
            },
          ],
        },
        { text: '{"ticketId":"T-1","reply":"Done."}' },
      ],
    });
    const prompt = new Prompt({
      ns: 'support',
      key: 'triage',
      sections: [TriageSection],
      output: TriageAnswer,
    });
    const session = new Session();
    await evaluate(prompt, { session });

    const held = container.get(TicketStore).tickets[0] as Ticket;
    held.priority = 'high';
    expect(held.priority).toBe('high');
    expect(session.slice(Ticket).latest()?.priority).toBe('low');
    expect(Object.isFrozen(session.slice(Ticket).latest())).toBe(true);
  });
});
