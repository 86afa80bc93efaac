import { type DynamicModule, Module } from '@nestjs/common';

import type { RuntimeOptions } from 'affordance';
import type { EvaluationQueue } from 'affordance/bullmq';
import type { SessionStore } from 'affordance/durable';
import { type AdapterOption, AffordanceModule } from 'affordance/nest';

import { AgentController } from './agent-controller.js';
import { ChatController } from './chat-controller.js';
import { ChatLog } from './chat-log.js';
import { ChatMedia } from './chat-media.js';
import { ChatMediaController } from './chat-media-controller.js';
import { chatPrompt } from './chat-prompt.js';
import { Customer } from './customer.js';
import { KnowledgeBase } from './knowledge-base.js';
import { PendingApprovals } from './pending-approvals.js';
import { QueuedAgentController } from './queued-agent-controller.js';
import { RefundDesk } from './refund-desk.js';
import { RefundSection } from './refund-section.js';
import { stateSecret } from './state-secret.js';
import { SupportDeskSection } from './support-desk-section.js';
import { supportPrompt } from './support-prompt.js';
import { TicketDesk } from './ticket-desk.js';
import { TicketNotesController } from './ticket-notes-controller.js';
import { UsageChartSection } from './usage-chart-section.js';

/**
 * The support service (`POST /agent`, approvals at `POST /agent/approvals/:stateId`)
 * and its chat mode (`GET /`): the agent's sections are providers like any other.
 * Paused evaluations wait in the `EvaluationStateStore` the affordance module
 * provides (in memory here; pass `stateStore` to `forRoot` for a durable one).
 */
@Module({
  controllers: [AgentController, ChatController, ChatMediaController, TicketNotesController],
  providers: [
    KnowledgeBase,
    TicketDesk,
    RefundDesk,
    Customer,
    SupportDeskSection,
    RefundSection,
    PendingApprovals,
    ChatLog,
    ChatMedia,
    UsageChartSection,
  ],
})
export class SupportAppModule {
  /**
   * The service with `adapter` as its model (and `runtime` options, e.g.
   * telemetry; paused evaluations are signed with {@link stateSecret} unless
   * they give another); the support and chat prompts are checked at startup. With
   * `queued.evaluationQueue` it also serves the queued mode (`POST /agent/jobs`,
   * see {@link QueuedAgentController}); `queued.sessionStore` keeps the
   * sessions (in memory by default).
   */
  static withModel(
    adapter: AdapterOption,
    runtime: RuntimeOptions = {},
    queued: {
      readonly sessionStore?: SessionStore;
      readonly evaluationQueue?: EvaluationQueue;
    } = {},
  ): DynamicModule {
    return {
      module: SupportAppModule,
      imports: [
        AffordanceModule.forRoot({
          adapter,
          prompts: [supportPrompt, chatPrompt],
          runtime: { stateSecret: stateSecret(), ...runtime },
          ...(queued.sessionStore === undefined ? {} : { sessionStore: queued.sessionStore }),
          ...(queued.evaluationQueue === undefined
            ? {}
            : { evaluationQueue: queued.evaluationQueue }),
        }),
      ],
      controllers: queued.evaluationQueue === undefined ? [] : [QueuedAgentController],
    };
  }
}
