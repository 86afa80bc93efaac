import { IsArray, IsIn, IsString } from 'class-validator';

import { Describe, Prompt } from 'affordance';

import { RefundSection } from './refund-section.js';
import { SupportDeskSection } from './support-desk-section.js';

/** The agent's structured answer to the customer. */
export class SupportReply {
  @Describe(
    'answered: solved from the knowledge base; ticket_opened: handed to engineers; ' +
      'refunded: a refund was issued; refund_declined: a person rejected the refund',
  )
  @IsIn(['answered', 'ticket_opened', 'refunded', 'refund_declined'])
  resolution!: 'answered' | 'ticket_opened' | 'refunded' | 'refund_declined';

  @Describe('The reply to send to the customer')
  @IsString()
  reply!: string;

  @Describe('Ids of the articles the reply relies on')
  @IsArray()
  @IsString({ each: true })
  articleIds!: string[];
}

/** The support agent: the support desk and refund sections, and a structured reply. */
export const supportPrompt = new Prompt({
  ns: 'examples/nest-service',
  key: 'support',
  sections: [SupportDeskSection, RefundSection],
  output: SupportReply,
});
