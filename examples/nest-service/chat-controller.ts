import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  Controller,
  Get,
  Header,
  type MessageEvent,
  NotFoundException,
  Query,
  Req,
  Res,
  Sse,
  ValidationPipe,
} from '@nestjs/common';
import { IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import type { Observable } from 'rxjs';

import {
  Deadline,
  type EvaluationState,
  EvaluationStateError,
  type EvaluationStream,
  Media,
  type MessageContent,
  PromptExecuted,
  Session,
  ToolInvoked,
} from 'affordance';
import { AffordanceService } from 'affordance/nest';
import { Plan } from 'affordance/planning';

import { chatEventsOf } from './chat-event.js';
import { ChatLog } from './chat-log.js';
import { ChatMedia } from './chat-media.js';
import { type ChatPage, loadChatPage } from './chat-page.js';
import { chatPrompt } from './chat-prompt.js';
import { approvalDecisions, ChatResumeQuery } from './decision-dto.js';
import { observeStream, type StreamEnding } from './observe-stream.js';
import { PendingApprovals } from './pending-approvals.js';

/** The query of `GET /chat/stream`. */
export class ChatQuery {
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  message!: string;

  /** A file sent with the message: the id `POST /chat/uploads` answered. */
  @IsOptional()
  @IsUUID()
  upload?: string;
}

/** Validates a query and hands the handler the transformed instance (the global pipe only validates). */
const transformQuery = new ValidationPipe({
  transform: true,
  whitelist: true,
  forbidNonWhitelisted: true,
});

/**
 * The chat mode: `GET /` serves the chat page, and `GET /chat/stream?message=...`
 * streams the chat agent's evaluation as server-sent events, one JSON event
 * per part (see `ChatEvent`). A client that disconnects cancels the evaluation.
 * A stream that pauses for approval ends with an `approval` event;
 * `GET /chat/resume?stateId=...&decisions=[...]` streams the rest of it, in
 * the same events. Resuming is a GET with the decisions in the query because
 * the page reads the stream with an `EventSource`, which can only send GETs:
 * one request both decides and streams, and the store hands each state out
 * once, so a replayed URL finds nothing (404).
 */
@Controller()
export class ChatController {
  readonly #page: ChatPage = loadChatPage();

  constructor(
    private readonly affordance: AffordanceService,
    private readonly approvals: PendingApprovals,
    private readonly log: ChatLog,
    private readonly media: ChatMedia,
  ) {}

  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  page(@Res({ passthrough: true }) response: ServerResponse): string {
    response.setHeader('content-security-policy', this.#page.contentSecurityPolicy);
    return this.#page.html;
  }

  // #region sse
  @Sse('chat/stream')
  stream(@Req() request: IncomingMessage, @Query() query: ChatQuery): Observable<MessageEvent> {
    const session = new Session();
    // `request` ties the evaluation to this HTTP request: the support section's Customer is this caller.
    const stream = this.affordance.stream(chatPrompt, {
      request,
      session,
      input: this.#input(query),
      deadline: Deadline.in(120_000),
    });
    return this.#observe(stream, session, query.message);
  }
  // #endregion sse

  /** The message, with the file uploaded for it (taken: an upload is sent once). */
  #input(query: ChatQuery): MessageContent {
    if (query.upload === undefined) return query.message;
    const part = this.media.take(query.upload);
    if (part === undefined) {
      throw new NotFoundException(
        `No upload waits under ${query.upload}: it was already sent, or the server restarted. Fix: attach the file again.`,
      );
    }
    return [Media.text(query.message), part];
  }

  /**
   * Resumes a paused chat with the decisions of its approval cards. 404 (as
   * JSON, before any event) when no chat waits under `stateId`; when the
   * runtime refuses the decisions, the stream's one event is an `error` with
   * its reason, and the state is put back so corrected decisions can resume it.
   */
  @Sse('chat/resume')
  async resume(
    @Req() request: IncomingMessage,
    @Query(transformQuery) query: ChatResumeQuery,
  ): Promise<Observable<MessageEvent>> {
    const claimed = await this.approvals.claim(query.stateId, chatPrompt);
    if (claimed === undefined) {
      throw new NotFoundException(
        `No paused chat waits under ${query.stateId}: it was never paused here, or it was already resumed. ` +
          'Fix: decide the approval cards of the latest paused answer, or send the message again.',
      );
    }
    const { state, paused } = claimed;
    const stream = this.affordance.stream(chatPrompt, {
      request,
      session: paused.session,
      resume: { state, decisions: approvalDecisions(query.decisions) },
      deadline: Deadline.in(120_000),
    });
    return this.#observe(stream, paused.session, paused.message, { stateId: query.stateId, state });
  }

  /**
   * The stream as SSE messages. A pause is saved (state in the store, session
   * kept) before the `approval` event tells the page how to resume it. For a
   * resumed stream, a refusal puts the state back; otherwise, once the stream
   * is over, the resumed state is forgotten (it ran and cannot run again).
   */
  #observe(
    stream: EvaluationStream,
    session: Session,
    message: string,
    resumed?: { readonly stateId: string; readonly state: EvaluationState },
  ): Observable<MessageEvent> {
    let refused = false;
    return observeStream(
      stream,
      async (part) => {
        if (part.type === 'tool-call-end') this.media.show(part.event.result.parts);
        if (part.type === 'interrupted')
          await this.approvals.hold(part.interruption, chatPrompt, message);
        if (resumed !== undefined && part.type === 'error' && EvaluationStateError.is(part.error)) {
          refused = true;
          await this.approvals.giveBack(resumed.state);
        }
        return chatEventsOf(part, () => session.slice(Plan).latest());
      },
      (ending) => {
        if (resumed !== undefined && !refused) this.approvals.settle(resumed.stateId);
        this.#record(message, ending, session);
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
