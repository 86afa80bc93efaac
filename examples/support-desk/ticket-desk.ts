import { injectable } from 'inversify';

/** How urgent a ticket is. */
export enum TicketPriority {
  Low = 'low',
  Normal = 'normal',
  Urgent = 'urgent',
}

/** A support ticket, as `open_ticket` returns it (and the session records it). */
export class Ticket {
  id!: string;
  email!: string;
  subject!: string;
  description!: string;
  priority!: TicketPriority;

  /** What the model reads instead of raw JSON. */
  render(): string {
    return `Ticket ${this.id} [${this.priority}] for ${this.email}: ${this.subject}`;
  }
}

/** Where tickets are filed: an application service the support section injects. */
@injectable()
export class TicketDesk {
  readonly #tickets: Ticket[] = [];

  /** Files a ticket and returns it with its id. */
  open(fields: Omit<Ticket, 'id' | 'render'>): Ticket {
    const ticket = Object.assign(new Ticket(), { id: `T-${1001 + this.#tickets.length}` }, fields);
    this.#tickets.push(ticket);
    return ticket;
  }

  /** Every ticket, oldest first. */
  all(): readonly Ticket[] {
    return [...this.#tickets];
  }
}
