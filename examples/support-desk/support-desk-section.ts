import { IsEmail, IsEnum, IsString, MaxLength, MinLength } from 'class-validator';
import { inject } from 'inversify';

import { Describe, Section, Tool, type ToolContext, ToolResult } from 'affordance';

import { Article, KnowledgeBase } from './knowledge-base.js';
import { Ticket, TicketDesk, TicketPriority } from './ticket-desk.js';

/** Arguments of `search_knowledge_base`. */
export class SearchParams {
  @Describe('Keywords, e.g. "reset password"')
  @IsString()
  @MinLength(2)
  query!: string;
}

/** Arguments of `open_ticket`. */
export class OpenTicketParams {
  @Describe("The customer's email address, where engineering will answer")
  @IsEmail()
  email!: string;

  @Describe('A short title, e.g. "CSV export fails with error 500"')
  @IsString()
  @MinLength(10)
  @MaxLength(120)
  subject!: string;

  @Describe('What the customer reports and what was already tried')
  @IsString()
  @MinLength(40)
  @MaxLength(2000)
  description!: string;

  @Describe('urgent only when the customer is blocked today')
  @IsEnum(TicketPriority)
  priority!: TicketPriority;
}

/** The support desk: how to help, and the tools to do it, backed by injected services. */
@Section({
  key: 'support-desk',
  title: 'Support desk',
  template: [
    'You answer customers of Acme Cloud.',
    'Search the knowledge base first and answer from the articles you find, citing their ids.',
    'When no article solves the problem, open a ticket, give the customer any workaround you found and the ticket id.',
  ].join('\n'),
})
export class SupportDeskSection {
  constructor(
    @inject(KnowledgeBase) private readonly knowledgeBase: KnowledgeBase,
    @inject(TicketDesk) private readonly tickets: TicketDesk,
  ) {}

  @Tool({
    name: 'search_knowledge_base',
    description: 'Search the help-centre articles by keywords.',
    result: [Article],
    readOnly: true,
  })
  search(params: SearchParams, _context: ToolContext): ToolResult<Article[]> {
    const found = this.knowledgeBase.search(params.query);
    const message =
      found.length === 0
        ? `No article matches '${params.query}'. Try other keywords or open a ticket.`
        : `Found ${found.length} article(s): ${found.map((article) => article.id).join(', ')}.`;
    return ToolResult.ok(found, message);
  }

  @Tool({
    name: 'open_ticket',
    description: 'Open a support ticket for engineering; returns the ticket id.',
    result: Ticket,
  })
  openTicket(params: OpenTicketParams, _context: ToolContext): ToolResult<Ticket> {
    const ticket = this.tickets.open({
      email: params.email,
      subject: params.subject,
      description: params.description,
      priority: params.priority,
    });
    return ToolResult.ok(ticket, `Opened ticket ${ticket.id} for ${ticket.email}.`);
  }
}
