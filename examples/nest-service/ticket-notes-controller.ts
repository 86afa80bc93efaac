import {
  Body,
  Controller,
  NotFoundException,
  Post,
  StandardSchemaValidationPipe,
} from '@nestjs/common';

import { TicketDesk } from './ticket-desk.js';
import { TicketNote } from './ticket-note.js';

/**
 * `POST /tickets/notes`: adds a note to a ticket. The body is validated by
 * Nest's `StandardSchemaValidationPipe` against the zod schema the agent's
 * `add_ticket_note` tool takes as params (a 400 lists each field's issue).
 */
@Controller('tickets')
export class TicketNotesController {
  constructor(private readonly tickets: TicketDesk) {}

  @Post('notes')
  addNote(
    @Body({ schema: TicketNote, pipes: [new StandardSchemaValidationPipe()] }) body: TicketNote,
  ): { readonly ticketId: string; readonly notes: readonly string[] } {
    const notes = this.tickets.addNote(body.ticketId, body.note);
    if (notes === undefined) throw new NotFoundException(`No ticket ${body.ticketId}.`);
    return { ticketId: body.ticketId, notes };
  }
}
