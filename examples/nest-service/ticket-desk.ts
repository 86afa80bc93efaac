import { Injectable } from '@nestjs/common';

/** A support ticket. */
export class Ticket {
  id!: string;
  customerId!: string;
  summary!: string;
  priority!: 'low' | 'normal' | 'high';
}

/** Where tickets are filed: one desk per application (a Nest singleton), shared by agents and controllers. */
@Injectable()
export class TicketDesk {
  readonly #tickets: Ticket[] = [];
  readonly #notes = new Map<string, string[]>();

  /** Files a ticket for `customerId`. */
  open(customerId: string, summary: string, priority: Ticket['priority']): Ticket {
    const ticket = Object.assign(new Ticket(), {
      id: `T-${1001 + this.#tickets.length}`,
      customerId,
      summary,
      priority,
    });
    this.#tickets.push(ticket);
    return ticket;
  }

  /** Adds `note` to the ticket `ticketId`: its notes so far, or `undefined` when there is no such ticket. */
  addNote(ticketId: string, note: string): readonly string[] | undefined {
    if (!this.#tickets.some((ticket) => ticket.id === ticketId)) return undefined;
    const notes = [...(this.#notes.get(ticketId) ?? []), note];
    this.#notes.set(ticketId, notes);
    return notes;
  }

  /** Every ticket, oldest first. */
  all(): readonly Ticket[] {
    return [...this.#tickets];
  }
}
