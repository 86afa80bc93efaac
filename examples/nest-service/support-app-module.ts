import { type DynamicModule, Module } from '@nestjs/common';

import { type AdapterOption, AffordanceModule } from 'affordance/nest';

import { AgentController } from './agent-controller.js';
import { Customer } from './customer.js';
import { KnowledgeBase } from './knowledge-base.js';
import { SupportDeskSection } from './support-desk-section.js';
import { supportPrompt } from './support-prompt.js';
import { TicketDesk } from './ticket-desk.js';

/** The support service: the agent's section is a provider like any other. */
@Module({
  controllers: [AgentController],
  providers: [KnowledgeBase, TicketDesk, Customer, SupportDeskSection],
})
export class SupportAppModule {
  /** The service with `adapter` as its model; the support prompt is checked at startup. */
  static withModel(adapter: AdapterOption): DynamicModule {
    return {
      module: SupportAppModule,
      imports: [AffordanceModule.forRoot({ adapter, prompts: [supportPrompt] })],
    };
  }
}
