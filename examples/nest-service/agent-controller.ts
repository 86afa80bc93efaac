import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  Body,
  ConflictException,
  Controller,
  Get,
  NotFoundException,
  Param,
  ParseUUIDPipe,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import { IsString, MaxLength, MinLength } from 'class-validator';

import { Deadline, EvaluationStateError, type PromptResponse } from 'affordance';
import { AffordanceService } from 'affordance/nest';

import type { AgentReply } from './agent-answer.js';
import { agentAnswerOf, pendingApprovalOf } from './agent-reply.js';
import { approvalDecisions, DecideDto } from './decision-dto.js';
import { PendingApprovals } from './pending-approvals.js';
import { type Refund, RefundDesk } from './refund-desk.js';
import { type SupportReply, supportPrompt } from './support-prompt.js';
import { type Ticket, TicketDesk } from './ticket-desk.js';

/** The body of `POST /agent`. */
export class AskDto {
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  message!: string;
}

/**
 * `POST /agent` runs the support agent for the calling customer: 200 with
 * the answer, or 202 with the calls waiting for a person's approval (e.g. a
 * large refund) and the `stateId` to decide them by. `POST
 * /agent/approvals/:stateId` brings the decisions and resumes the agent: 200
 * or 202 again. `GET /tickets` and `GET /refunds` list what the agent did.
 */
@Controller()
export class AgentController {
  constructor(
    private readonly affordance: AffordanceService,
    private readonly approvals: PendingApprovals,
    private readonly tickets: TicketDesk,
    private readonly refunds: RefundDesk,
  ) {}

  @Post('agent')
  async ask(
    @Req() request: IncomingMessage,
    @Res() reply: ServerResponse,
    @Body() body: AskDto,
  ): Promise<void> {
    const started = performance.now();
    // `request` ties the evaluation to this HTTP request: the section's request-scoped Customer is this caller.
    const response = await this.affordance.evaluate(supportPrompt, {
      request,
      input: body.message,
      deadline: Deadline.in(60_000),
    });
    await this.#answer(reply, response, body.message, started);
  }

  /**
   * Resumes the paused evaluation `stateId` with a person's decisions. 404
   * when no evaluation waits under that id (unknown, or already resumed);
   * 409 with the runtime's reason when it refuses the decisions (e.g. a
   * `callId` that is not pending), and then the state stays: send corrected
   * decisions to the same URL.
   */
  @Post('agent/approvals/:stateId')
  async decide(
    @Req() request: IncomingMessage,
    @Res() reply: ServerResponse,
    @Param('stateId', new ParseUUIDPipe()) stateId: string,
    @Body() body: DecideDto,
  ): Promise<void> {
    const started = performance.now();
    const claimed = await this.approvals.claim(stateId, supportPrompt);
    if (claimed === undefined) {
      throw new NotFoundException(
        `No paused request waits under ${stateId}: it was never paused here, or it was already resumed. ` +
          'Fix: use the stateId of the latest 202 answer, or POST /agent again.',
      );
    }
    const { state, paused } = claimed;
    let response: PromptResponse<SupportReply>;
    try {
      // The approver's request: the calls that run now resolve their request-scoped providers in it.
      response = await this.affordance.resume(
        supportPrompt,
        state,
        approvalDecisions(body.decisions),
        {
          request,
          session: paused.session,
          deadline: Deadline.in(60_000),
        },
      );
    } catch (error) {
      if (!EvaluationStateError.is(error)) {
        this.approvals.settle(stateId);
        throw error;
      }
      // Refused before anything ran: the state can still be resumed with corrected decisions.
      await this.approvals.giveBack(state);
      throw new ConflictException({
        statusCode: 409,
        error: 'Conflict',
        message: error.message,
        stateId,
      });
    }
    this.approvals.settle(stateId);
    await this.#answer(reply, response, paused.message, started);
  }

  @Get('tickets')
  listTickets(): readonly Ticket[] {
    return this.tickets.all();
  }

  @Get('refunds')
  listRefunds(): readonly Refund[] {
    return this.refunds.all();
  }

  /** Sends 200 with the answer, or holds the paused evaluation and sends 202 with its pending calls. */
  async #answer(
    reply: ServerResponse,
    response: PromptResponse<SupportReply>,
    message: string,
    started: number,
  ): Promise<void> {
    if (response.status === 'completed') {
      sendJson(reply, 200, agentAnswerOf(response, started));
      return;
    }
    const { interruption } = response;
    const stateId = await this.approvals.hold(interruption, supportPrompt, message);
    sendJson(reply, 202, pendingApprovalOf(stateId, interruption.pending));
  }
}

/** Writes `body` as JSON with `status` (Nest's `@HttpCode` is fixed per route; this one answers 200 or 202). */
function sendJson(reply: ServerResponse, status: number, body: AgentReply): void {
  const text = JSON.stringify(body);
  reply.statusCode = status;
  reply.setHeader('content-type', 'application/json; charset=utf-8');
  reply.setHeader('content-length', Buffer.byteLength(text));
  reply.end(text);
}
