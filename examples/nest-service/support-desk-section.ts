import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';

import { Describe, Section, Tool, type ToolContext, ToolResult } from 'affordance';

import { Customer } from './customer.js';
import { Article, KnowledgeBase } from './knowledge-base.js';
import { Ticket, TicketDesk } from './ticket-desk.js';
import { TicketNote } from './ticket-note.js';

/** Arguments of `search_knowledge_base`. */
export class SearchParams {
  @Describe('Keywords, e.g. "reset password"')
  @IsString()
  @MinLength(2)
  query!: string;
}

/** Arguments of `open_ticket`. */
export class OpenTicketParams {
  @Describe('What the customer reports, in one or two sentences')
  @IsString()
  @MinLength(20)
  @MaxLength(500)
  summary!: string;

  @Describe('How urgent it is for the customer')
  @IsIn(['low', 'normal', 'high'])
  priority!: 'low' | 'normal' | 'high';
}

/**
 * The support desk: how to help, and the tools to do it. A plain Nest
 * provider: Nest injects the knowledge base and ticket desk (singletons) and
 * the request's customer (request-scoped), so each request's tool calls file
 * tickets for that request's customer.
 */
@Section({
  key: 'support',
  title: 'Support desk',
  template: [
    'You answer customers of Acme Cloud.',
    'Search the knowledge base first and answer from the articles you find, citing their ids.',
    'When no article solves the problem, open a ticket and tell the customer it is filed.',
  ].join('\n'),
})
export class SupportDeskSection {
  constructor(
    private readonly knowledgeBase: KnowledgeBase,
    private readonly tickets: TicketDesk,
    private readonly customer: Customer,
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
        ? `No article matches '${params.query}'.`
        : `Found ${found.length} article(s): ${found.map((article) => article.id).join(', ')}.`;
    return ToolResult.ok(found, message);
  }

  @Tool({
    name: 'open_ticket',
    description: 'Open a support ticket for the customer of this conversation.',
    result: Ticket,
  })
  openTicket(params: OpenTicketParams, _context: ToolContext): ToolResult<Ticket> {
    const ticket = this.tickets.open(this.customer.id, params.summary, params.priority);
    return ToolResult.ok(ticket, `Opened ticket ${ticket.id} for customer ${ticket.customerId}.`);
  }

  /** The zod schema `POST /tickets/notes` validates its body with, reused as the params. */
  @Tool({
    name: 'add_ticket_note',
    description: 'Add a note to an open ticket.',
    params: TicketNote,
  })
  addTicketNote(params: TicketNote, _context: ToolContext): ToolResult<null> {
    const notes = this.tickets.addNote(params.ticketId, params.note);
    if (notes === undefined) return ToolResult.error(`No ticket ${params.ticketId}.`);
    return ToolResult.ok(null, `Added note ${notes.length} to ${params.ticketId}.`);
  }
}
