import { IsArray, IsIn, IsString } from 'class-validator';

import { Describe, Prompt } from 'affordance';

import { SupportDeskSection } from './support-desk-section.js';

/** The agent's structured answer to the customer. */
export class SupportReply {
  @Describe('answered: solved from the knowledge base; ticket_opened: handed to engineers')
  @IsIn(['answered', 'ticket_opened'])
  resolution!: 'answered' | 'ticket_opened';

  @Describe('The reply to send to the customer')
  @IsString()
  reply!: string;

  @Describe('Ids of the articles the reply relies on')
  @IsArray()
  @IsString({ each: true })
  articleIds!: string[];
}

/** The support agent: the support desk section and a structured reply. */
export const supportPrompt = new Prompt({
  ns: 'examples/nest-service',
  key: 'support',
  sections: [SupportDeskSection],
  output: SupportReply,
});
