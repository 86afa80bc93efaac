import { get, type IncomingMessage } from 'node:http';

import { Controller, type MessageEvent, Module, Req, Sse } from '@nestjs/common';
import { map, type Observable } from 'rxjs';

import {
  MarkdownSection,
  Prompt,
  Session,
  type ToolContext,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { AffordanceModule, AffordanceService } from 'affordance/nest';
import type { ScriptedTurn } from 'affordance/testing';

import { deferred } from '../support/deferred.js';
import { listen, type RunningApp } from '../support/nest-http.js';
import type { HttpRequest } from '../support/nest-caller.js';
import { ScriptPerEvaluation } from '../support/script-per-evaluation.js';

const session = new Session();
const holding = deferred();
const released = deferred<unknown>();

/** A call that runs until its signal aborts (the evaluation is cancelled), then says why. */
const hold = new ToolDefinition({
  name: 'hold',
  description: 'Wait until the call is interrupted.',
  handler: async (_params: undefined, context: ToolContext) => {
    holding.resolve();
    await new Promise((resolve) => {
      context.signal.addEventListener('abort', resolve);
    });
    released.resolve(context.signal.reason);
    return ToolResult.ok(undefined, 'Released.');
  },
});

const chatPrompt = new Prompt({
  ns: 'hardening',
  key: 'sse-disconnect',
  sections: [new MarkdownSection({ key: 'chat', title: 'Chat', template: 'Chat.', tools: [hold] })],
});

const script = (): ScriptedTurn[] => [{ toolCalls: [{ name: 'hold' }] }, { text: 'never' }];

/** The application's endpoint: it maps the parts to JSON and does nothing about disconnects. */
@Controller()
class ChatController {
  constructor(private readonly affordance: AffordanceService) {}

  @Sse('chat')
  chat(@Req() request: HttpRequest): Observable<MessageEvent> {
    return this.affordance
      .observe(chatPrompt, { request, session, input: 'hold on' })
      .pipe(map((part) => ({ data: { type: part.type } })));
  }
}

@Module({
  imports: [AffordanceModule.forRoot({ adapter: () => new ScriptPerEvaluation(script) })],
  controllers: [ChatController],
})
class ChatModule {}

describe('A NestJS server-sent events endpoint whose client disconnects', () => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await listen(ChatModule);
  });

  afterAll(async () => {
    await running.app.close();
  });

  it('cancels the evaluation: the running call is interrupted and recorded as unknown', async () => {
    const received: string[] = [];
    const request = get(`${running.url}/chat`);
    const response = await new Promise<IncomingMessage>((resolve) => {
      request.on('response', resolve);
    });
    expect(response.headers['content-type']).toContain('text/event-stream');
    response.setEncoding('utf8');
    const started = deferred();
    response.on('data', (chunk: string) => {
      received.push(chunk);
      if (received.join('').includes('"type":"turn-end"')) started.resolve();
    });
    await Promise.all([holding.promise, started.promise]);
    // The client leaves while the call runs; the application wrote no teardown of its own.
    request.destroy();

    const reason = await released.promise;
    expect(String(reason)).toMatch(/stopped|cancel/i);
    await new Promise((resolve) => setImmediate(resolve));
    const calls = session.slice(ToolInvoked).all();
    expect(calls.map((event) => [event.name, event.outcome])).toEqual([['hold', 'unknown']]);
  });
});
