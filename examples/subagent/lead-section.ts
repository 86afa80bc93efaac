import { IsString, MinLength } from 'class-validator';

import { Describe, Section, Tool, type ToolContext, ToolResult } from 'affordance';

import { Findings, researcherPrompt } from './researcher.js';

/** Arguments of `delegate_research`. */
export class DelegateParams {
  @Describe('The question for the researcher, with the account name')
  @IsString()
  @MinLength(15)
  question!: string;
}

/** The lead agent's instructions and its one tool: delegating research to a sub-agent. */
@Section({
  key: 'lead',
  title: 'Account manager',
  template:
    'You help account managers decide what to do about an account. Delegate fact finding to the researcher, then answer.',
})
export class LeadSection {
  @Tool({
    name: 'delegate_research',
    description: 'Ask the researcher sub-agent a question about an account; returns its findings.',
    result: Findings,
    readOnly: true,
  })
  async delegate(params: DelegateParams, context: ToolContext): Promise<ToolResult<Findings>> {
    // A nested evaluation on the same runtime and adapter. Same session and deadline: the child's
    // events and state land beside the parent's, and it stops when the parent must.
    const child = await context.evaluate(researcherPrompt, {
      session: context.session,
      deadline: context.deadline,
      input: params.question,
    });
    const findings = child.output as Findings;
    return ToolResult.ok(findings, `The researcher found: ${findings.summary}`);
  }
}
