import { Container } from 'inversify';

import { type AffordanceRuntime, installAffordance, MarkdownSection, Prompt } from 'affordance';
import { defineEvalSuite, type EvalObservation, type EvalSuite, llmJudge } from 'affordance/evals';
import { ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

import { KnowledgeBase } from '../support-desk/knowledge-base.js';
import { SupportAnswer } from '../support-desk/main.js';
import { SupportDeskSection } from '../support-desk/support-desk-section.js';
import { TicketDesk } from '../support-desk/ticket-desk.js';
import { HASTY_MARKER, PromptFollowingModel } from './prompt-following-model.js';
import { JUDGED_CASE, supportCases } from './support-cases.js';

/** The support desk's prompt: its section (instructions and tools) and its structured answer. */
export const carefulPrompt = new Prompt({
  ns: 'examples/evals',
  key: 'support-desk',
  sections: [SupportDeskSection],
  output: SupportAnswer,
});

/** The deliberately worse prompt: the same desk, told to hurry. */
export const hastyPrompt = new Prompt({
  ns: 'examples/evals',
  key: 'support-desk-hasty',
  sections: [
    SupportDeskSection,
    new MarkdownSection({
      key: 'speed',
      title: 'Speed',
      template: `${HASTY_MARKER}: skip the search when you think you know the answer, and open tickets only when the customer asks for one.`,
    }),
  ],
  output: SupportAnswer,
});

/**
 * The application's runtime: the knowledge base shared, a ticket desk per
 * evaluation (so each case's first ticket is T-1001).
 */
export function createSupportRuntime(): AffordanceRuntime {
  const container = new Container();
  container.bind(KnowledgeBase).toSelf().inSingletonScope();
  container.bind(TicketDesk).toSelf();
  return installAffordance(container);
}

/**
 * The judge's side, scripted (a real run passes a real adapter): it grades
 * against the rubric as a model would, giving a high score to a reply that
 * apologises and gives the ticket id, a low one otherwise.
 */
export function scriptedJudge(trial: EvalObservation): ScriptedAdapter {
  const reply = (trial.output as SupportAnswer | null)?.reply ?? '';
  const apologises = /sorry/i.test(reply);
  const verdict = apologises
    ? { score: 0.9, reason: 'Apologises for the outages and gives the ticket id.' }
    : { score: 0.2, reason: 'Gives the ticket id but ignores how upset the customer is.' };
  return new ScriptedAdapter([{ text: JSON.stringify(verdict) }]);
}

const judge = llmJudge({
  name: 'judge-empathy',
  rubric:
    'The customer is angry about repeated outages. A good reply apologises, takes the problem seriously and gives the ticket id.',
  adapter: scriptedJudge,
  threshold: 0.7,
});

/** The support-desk suite on `prompt`: the 20 cases, the judge on one of them. */
export function supportDeskSuite(prompt: Prompt<SupportAnswer>, name: string): EvalSuite {
  return defineEvalSuite({
    name,
    prompt,
    runtime: createSupportRuntime,
    adapter: (evalCase) => {
      const data = evalCase.data as { careful: ScriptedTurn[]; hasty: ScriptedTurn[] };
      return new PromptFollowingModel(data.careful, data.hasty);
    },
    cases: supportCases.map((evalCase) =>
      evalCase.id === JUDGED_CASE ? { ...evalCase, scorers: [judge] } : evalCase,
    ),
    prices: { inputPerMillionTokens: 0.4, outputPerMillionTokens: 1.6 },
  });
}
