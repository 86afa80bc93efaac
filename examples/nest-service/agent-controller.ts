import type { IncomingMessage } from 'node:http';

import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { IsString, MaxLength, MinLength } from 'class-validator';

import { Deadline } from 'affordance';
import { AffordanceService } from 'affordance/nest';

import type { AgentAnswer } from './agent-answer.js';
import { type SupportReply, supportPrompt } from './support-prompt.js';
import { type Ticket, TicketDesk } from './ticket-desk.js';

/** The body of `POST /agent`. */
export class AskDto {
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  message!: string;
}

/** `POST /agent` runs the support agent for the calling customer; `GET /tickets` lists the desk. */
@Controller()
export class AgentController {
  constructor(
    private readonly affordance: AffordanceService,
    private readonly tickets: TicketDesk,
  ) {}

  @Post('agent')
  @HttpCode(200)
  async ask(@Req() request: IncomingMessage, @Body() body: AskDto): Promise<AgentAnswer> {
    const started = performance.now();
    // `request` ties the evaluation to this HTTP request: the section's request-scoped Customer is this caller.
    const response = await this.affordance.evaluate(supportPrompt, {
      request,
      input: body.message,
      deadline: Deadline.in(60_000),
    });
    return {
      reply: response.output as SupportReply,
      toolCalls: response.toolCalls.map(({ call, event, result }) => ({
        tool: call.name,
        arguments:
          typeof event.rawArguments === 'string'
            ? event.rawArguments
            : JSON.stringify(event.rawArguments),
        outcome: result.success ? 'success' : 'failure',
        message: result.message,
      })),
      tickets: response.toolCalls
        .filter(({ call, result }) => call.name === 'open_ticket' && result.success)
        .map(({ result }) => result.value as Ticket),
      turns: response.turns,
      usage: {
        inputTokens: response.usage?.inputTokens ?? 0,
        outputTokens: response.usage?.outputTokens ?? 0,
      },
      durationMs: Math.round(performance.now() - started),
    };
  }

  @Get('tickets')
  list(): readonly Ticket[] {
    return this.tickets.all();
  }
}
