import { z } from 'zod';

/**
 * A note on a ticket: one zod schema validates the HTTP body of
 * `POST /tickets/notes` (Nest's `StandardSchemaValidationPipe`) and is the
 * params of the agent's `add_ticket_note` tool, so the two never drift.
 */
export const TicketNote = z.object({
  ticketId: z
    .string()
    .regex(/^T-\d+$/)
    .describe('The ticket id, e.g. T-1001'),
  note: z.string().min(10).max(500).describe('What to add to the ticket, in a sentence or two'),
});

/** A validated {@link TicketNote}. */
export type TicketNote = z.infer<typeof TicketNote>;
