import type { IncomingMessage, ServerResponse } from 'node:http';

import { Controller, Get, Header, type MessageEvent, Query, Req, Res, Sse } from '@nestjs/common';
import { IsString, MaxLength, MinLength } from 'class-validator';
import type { Observable } from 'rxjs';

import { Deadline, PromptExecuted, Session, ToolInvoked } from 'affordance';
import { AffordanceService } from 'affordance/nest';
import { Plan } from 'affordance/planning';

import { chatEventsOf } from './chat-event.js';
import { ChatLog } from './chat-log.js';
import { type ChatPage, loadChatPage } from './chat-page.js';
import { chatPrompt } from './chat-prompt.js';
import { observeStream, type StreamEnding } from './observe-stream.js';

/** The query of `GET /chat/stream`. */
export class ChatQuery {
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  message!: string;
}

/**
 * The chat mode: `GET /` serves the chat page, and `GET /chat/stream?message=...`
 * streams the chat agent's evaluation as server-sent events, one JSON event
 * per part (see `ChatEvent`). A client that disconnects cancels the evaluation.
 */
@Controller()
export class ChatController {
  readonly #page: ChatPage = loadChatPage();

  constructor(
    private readonly affordance: AffordanceService,
    private readonly log: ChatLog,
  ) {}

  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  page(@Res({ passthrough: true }) response: ServerResponse): string {
    response.setHeader('content-security-policy', this.#page.contentSecurityPolicy);
    return this.#page.html;
  }

  @Sse('chat/stream')
  stream(@Req() request: IncomingMessage, @Query() query: ChatQuery): Observable<MessageEvent> {
    const session = new Session();
    // `request` ties the evaluation to this HTTP request: the support section's Customer is this caller.
    const stream = this.affordance.stream(chatPrompt, {
      request,
      session,
      input: query.message,
      deadline: Deadline.in(120_000),
    });
    return observeStream(
      stream,
      (part) => chatEventsOf(part, () => session.slice(Plan).latest()),
      (ending) => {
        this.#record(query.message, ending, session);
      },
    );
  }

  #record(message: string, ending: StreamEnding, session: Session): void {
    this.log.add({
      message,
      ending,
      toolCalls: session
        .slice(ToolInvoked)
        .all()
        .map((call) => ({ tool: call.name, outcome: call.outcome })),
      executed: session.slice(PromptExecuted).all().length > 0,
    });
  }
}
