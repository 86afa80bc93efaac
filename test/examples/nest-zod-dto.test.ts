/**
 * The Nest example's one zod schema, `TicketNote`, used twice in a real Nest
 * application on 127.0.0.1: Nest's `StandardSchemaValidationPipe` validates
 * the body of `POST /tickets/notes` with it, and the agent's
 * `add_ticket_note` tool takes it as params (its JSON Schema, its failures).
 */
import type { INestApplication } from '@nestjs/common';

import { toJsonSchema } from 'affordance/provider';

import { ask, createApp } from '../../examples/nest-service/main.js';
import { supportPrompt } from '../../examples/nest-service/support-prompt.js';
import { TicketNote } from '../../examples/nest-service/ticket-note.js';

let app: INestApplication;
let url: string;

beforeAll(async () => {
  app = await createApp({ offline: true });
  await app.listen(0, '127.0.0.1');
  url = await app.getUrl();
  // The CSV question opens T-1001 (examples/nest-service/offline-model.ts).
  await ask(url, { customerId: 'c-1', message: 'The CSV export crashes with error 500.' });
});

afterAll(async () => {
  await app.close();
});

const postNote = (body: unknown): Promise<Response> =>
  fetch(`${url}/tickets/notes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('examples/nest-service: one zod schema for an HTTP body and a tool', () => {
  it('validates POST /tickets/notes with StandardSchemaValidationPipe', async () => {
    const ok = await postNote({ ticketId: 'T-1001', note: 'Customer called back twice.' });
    const bad = await postNote({ ticketId: '1001', note: 'short' });
    const missing = await postNote({ ticketId: 'T-9999', note: 'Nobody filed this one.' });

    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ ticketId: 'T-1001', notes: ['Customer called back twice.'] });
    expect(bad.status).toBe(400);
    const { message } = (await bad.json()) as { message: string[] };
    expect(message).toHaveLength(2);
    expect(message[0]).toMatch(/^ticketId: /);
    expect(message[1]).toMatch(/^note: /);
    expect(missing.status).toBe(404);
  });

  it('sends the same schema as the tool params and validates the tool call with it', async () => {
    const tool = supportPrompt.allTools.find((entry) => entry.name === 'add_ticket_note');
    expect(tool?.params?.schema).toBe(TicketNote);
    expect(tool?.params?.jsonSchema('standard').schema).toEqual(
      toJsonSchema(TicketNote, 'standard').schema,
    );

    const answer = await ask(url, {
      customerId: 'c-1',
      message: 'Please add a note to T-1001: the export works again after the update.',
    });

    expect(answer.toolCalls.map((call) => [call.tool, call.outcome])).toEqual([
      ['add_ticket_note', 'failure'],
      ['add_ticket_note', 'success'],
    ]);
    expect(answer.toolCalls[0]?.message).toMatch(/^Tool validation failed: note: /);
    expect(answer.toolCalls[1]?.message).toMatch(/^Added note \d+ to T-1001\.$/);
    expect(answer.reply.reply).toBe('I added your note to T-1001.');
  });
});
