import 'reflect-metadata';

import { IsArray, IsBoolean, IsString } from 'class-validator';
import { Container } from 'inversify';

import {
  Deadline,
  Describe,
  Prompt,
  PromptExecuted,
  PromptRendered,
  Session,
  ToolInvoked,
} from 'affordance';
import type { ScriptedTurn } from 'affordance/testing';

import { bindProvider } from '../shared/bind-provider.js';
import { AccountNotes } from './account-notes.js';
import { LeadSection } from './lead-section.js';

/** The lead agent's structured answer. */
export class AccountReview {
  @Describe('Whether the account is at risk of not renewing') @IsBoolean() atRisk!: boolean;
  @Describe('Why, in one or two sentences') @IsString() reason!: string;
  @Describe('What the account manager should do next')
  @IsArray()
  @IsString({ each: true })
  nextSteps!: string[];
}

/** The lead agent: delegates research, then answers. */
export const leadPrompt = new Prompt({
  ns: 'examples/subagent',
  key: 'lead',
  sections: [LeadSection],
  output: AccountReview,
});

/** The account manager's question. */
export const question = 'Is the Globex account at risk before its renewal?';

/**
 * Both agents' side of the offline run, in the order the requests arrive:
 * the lead delegates, the researcher searches twice and reports, then the
 * lead answers. One script serves the parent and the nested child.
 */
export const scriptedModel: readonly ScriptedTurn[] = [
  {
    text: 'I need the facts first; asking the researcher.',
    toolCalls: [
      {
        name: 'delegate_research',
        arguments: { question: 'Globex: usage trend, open tickets and renewal date?' },
      },
    ],
    usage: { inputTokens: 310, outputTokens: 38 },
  },
  {
    toolCalls: [
      { name: 'search_notes', arguments: { account: 'Globex', keywords: ['users', 'tickets'] } },
    ],
    usage: { inputTokens: 280, outputTokens: 29 },
  },
  {
    toolCalls: [{ name: 'search_notes', arguments: { account: 'Globex', keywords: ['renewal'] } }],
    usage: { inputTokens: 402, outputTokens: 22 },
  },
  {
    text: JSON.stringify({
      summary:
        'Usage fell from 420 to 260 weekly users in 90 days, two urgent export tickets are open, ' +
        'and the renewal on 30 September has lost its champion.',
      noteIds: ['n-1', 'n-2', 'n-3'],
    }),
    usage: { inputTokens: 498, outputTokens: 61 },
  },
  {
    text: JSON.stringify({
      atRisk: true,
      reason:
        'Usage dropped by 38% and two urgent tickets are open, with the renewal due on 30 September and no champion.',
      nextSteps: [
        'Escalate the two open export tickets',
        'Find a new champion at Globex before August',
        'Offer a usage review call',
      ],
    }),
    usage: { inputTokens: 455, outputTokens: 74 },
  },
];

/**
 * Runs the lead agent offline against the scripted model. Prints every
 * prompt, tool call and answer as the session receives it, indented by how
 * deeply the evaluation is nested, then the review and a summary. Pass a
 * `session` to watch or keep its events.
 */
export async function run(
  print: (line: string) => void = console.log,
  session: Session = new Session(),
  env: NodeJS.ProcessEnv = process.env,
) {
  const container = new Container();
  container.bind(AccountNotes).toSelf().inSingletonScope();
  const { runtime, script, mode } = bindProvider(container, env, scriptedModel, print);
  print(`Model: ${mode}`);
  let depth = 0;
  const pad = () => '  '.repeat(depth);
  session.dispatcher.subscribe(PromptRendered, (event) => {
    print(
      `${pad()}▶ ${event.promptName} starts (evaluation ${(event.evaluationId ?? '?').slice(0, 8)})`,
    );
    depth += 1;
  });
  session.dispatcher.subscribe(ToolInvoked, (event) => {
    print(`${pad()}> ${event.name} ${String(event.rawArguments)}`);
    print(`${pad()}  ${event.outcome}: ${event.result.message}`);
  });
  session.dispatcher.subscribe(PromptExecuted, (event) => {
    depth -= 1;
    const usage = event.usage;
    print(
      `${pad()}◀ ${event.promptName} answered: ${usage?.inputTokens ?? 0} input + ` +
        `${usage?.outputTokens ?? 0} output tokens, ${Math.round(event.durationMs ?? 0)} ms`,
    );
  });

  print(`Question: ${question}`);
  const started = Date.now();
  const response = await runtime.evaluate(leadPrompt, {
    input: question,
    session,
    deadline: Deadline.in(60_000),
  });
  script?.assertDone(); // offline: the lead and the researcher used every scripted turn
  const review = response.output as AccountReview;
  print(`Review: ${review.atRisk ? 'at risk' : 'not at risk'}. ${review.reason}`);
  for (const step of review.nextSteps) print(`  - ${step}`);
  const answers = session.slice(PromptExecuted).all();
  const input = answers.reduce((sum, event) => sum + (event.usage?.inputTokens ?? 0), 0);
  const output = answers.reduce((sum, event) => sum + (event.usage?.outputTokens ?? 0), 0);
  print(
    `Done: ${answers.length} evaluations (${response.turns} requests by the lead), ` +
      `${session.slice(ToolInvoked).all().length} tool calls, ${input} input + ${output} output tokens ` +
      `in one session, ${Date.now() - started} ms.`,
  );
  return { response, session, runtime, script };
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  await run();
}
