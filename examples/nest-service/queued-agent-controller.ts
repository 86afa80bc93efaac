import type { IncomingMessage } from 'node:http';

import {
  Body,
  Controller,
  Get,
  HttpCode,
  type MessageEvent,
  NotFoundException,
  Param,
  Post,
  Req,
  Sse,
} from '@nestjs/common';
import type { Observable } from 'rxjs';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

import { EvaluationQueue, type EvaluationJobResult } from 'affordance/bullmq';

import { observeJob } from './observe-job.js';

/** The body of `POST /agent/jobs`. */
export class QueuedAskDto {
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  message!: string;

  /** The conversation to continue; the customer's own by default. */
  @IsOptional()
  @Matches(/^[\w-]{1,80}$/)
  sessionId?: string;
}

/** What `GET /agent/jobs/:jobId` answers. */
export interface JobView {
  readonly jobId: string;
  /** BullMQ's state: waiting, active, completed, failed... */
  readonly state: string;
  /** The last progress the worker reported (turn, tool calls), if any. */
  readonly progress: unknown;
  /** The job's result once completed: the answer, or the calls waiting for approval. */
  readonly result: EvaluationJobResult | null;
  /** Why it failed, if it did. */
  readonly failedReason: string | null;
}

/**
 * The queued mode of the support service: `POST /agent/jobs` puts the
 * customer's question on the queue and answers 202 at once; a worker process
 * runs the agent on the customer's stored session; `GET /agent/jobs/:jobId`
 * shows its progress and result, and `GET /agent/jobs/:jobId/events` streams
 * them (server-sent events: `progress`..., then `completed` or `failed`).
 */
@Controller('agent/jobs')
export class QueuedAgentController {
  constructor(private readonly queue: EvaluationQueue) {}

  @Post()
  @HttpCode(202)
  async enqueue(@Req() request: IncomingMessage, @Body() body: QueuedAskDto): Promise<object> {
    const header = request.headers['x-customer-id'];
    const customerId = typeof header === 'string' && header !== '' ? header : 'anonymous';
    const sessionId = body.sessionId ?? `customer-${customerId}`;
    const jobId = await this.queue.enqueue({
      prompt: 'support',
      sessionId,
      input: body.message,
      data: { customerId },
    });
    return { jobId, sessionId, status: 'queued' };
  }

  @Sse(':jobId/events')
  events(@Param('jobId') jobId: string): Observable<MessageEvent> {
    return observeJob(this.queue, jobId);
  }

  @Get(':jobId')
  async show(@Param('jobId') jobId: string): Promise<JobView> {
    // The state first, then the job: a job read before it ended and a state read after would
    // say "completed" without the result (BullMQ stores both in one step when the job ends).
    const state = await this.queue.queue.getJobState(jobId);
    const job = await this.queue.queue.getJob(jobId);
    if (job === undefined || state === 'unknown') throw new NotFoundException(`No job ${jobId}.`);
    // BullMQ leaves both unset until the job ends, whatever their types say.
    const returned: unknown = job.returnvalue;
    const failed: unknown = job.failedReason;
    return {
      jobId,
      state,
      progress: job.progress,
      result:
        returned === null || returned === undefined ? null : (returned as EvaluationJobResult),
      failedReason: typeof failed === 'string' ? failed : null,
    };
  }
}
