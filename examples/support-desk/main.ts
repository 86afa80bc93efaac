import 'reflect-metadata';

import { ArrayUnique, IsArray, IsEnum, IsOptional, IsString, Matches } from 'class-validator';
import { Container } from 'inversify';

import { Deadline, Describe, Prompt, Session, ToolInvoked } from 'affordance';
import {
  Plan,
  PlanningStrategy,
  PlanningToolsParams,
  PlanningToolsSection,
} from 'affordance/planning';

import { bindProvider } from '../shared/bind-provider.js';
import { KnowledgeBase } from './knowledge-base.js';
import { customerMessage, scriptedModel } from './scripted-model.js';
import { SupportDeskSection } from './support-desk-section.js';
import { Ticket, TicketDesk } from './ticket-desk.js';
import { TurnPrinter, type TurnReport } from './turn-printer.js';

/** How the conversation ended. */
export enum Resolution {
  Answered = 'answered',
  TicketOpened = 'ticket_opened',
}

/** The agent's structured answer to the customer. */
export class SupportAnswer {
  @Describe('answered: solved from the knowledge base; ticket_opened: handed to engineering')
  @IsEnum(Resolution)
  resolution!: Resolution;

  @Describe('The ticket opened in this conversation, if any, e.g. T-1001')
  @IsOptional()
  @Matches(/^T-\d+$/)
  ticketId?: string;

  @Describe('Ids of the articles the reply relies on')
  @IsArray()
  @ArrayUnique()
  @IsString({ each: true })
  articleIds!: string[];

  @Describe('The reply to send to the customer')
  @IsString()
  reply!: string;
}

/** The support agent: the desk with its tools, the planning tools, and a structured answer. */
export const supportDeskPrompt = new Prompt({
  ns: 'examples/support-desk',
  key: 'agent',
  sections: [SupportDeskSection, PlanningToolsSection],
  output: SupportAnswer,
});

/**
 * The application container with affordance installed, its runtime, and the
 * adapter to evaluate with: the provider bound in the container — OpenAI when
 * `OPENAI_API_KEY` is set (any compatible server via `OPENAI_BASE_URL`;
 * `OPENAI_MODEL`, `OPENAI_API=chat` for Chat Completions), otherwise the
 * scripted model — wrapped to report each turn to `onTurn`.
 */
export function wire(
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
  onTurn: (report: TurnReport) => void,
) {
  const container = new Container();
  container.bind(KnowledgeBase).toSelf().inSingletonScope();
  container.bind(TicketDesk).toSelf().inSingletonScope();
  const { runtime, adapter, script, mode } = bindProvider(container, env, scriptedModel, print);
  return { container, runtime, adapter: new TurnPrinter(adapter, onTurn), script, mode };
}

/**
 * Runs the support agent on one customer message and prints each turn, each
 * tool call with its arguments and outcome, the plan, the tickets, the answer
 * and a summary of tokens and time. Returns the response, session and container.
 */
export async function run(
  print: (line: string) => void = console.log,
  env: NodeJS.ProcessEnv = process.env,
) {
  const { container, runtime, adapter, script, mode } = wire(env, print, (report) => {
    const calls = report.turn.toolCalls ?? [];
    print('');
    print(
      `Turn ${report.request.turn + 1} (${report.inputTokens} input + ${report.outputTokens} output tokens)`,
    );
    const text = report.turn.text ?? '';
    if (calls.length === 0) print('  model: final answer');
    else if (text !== '') print(`  model: ${text}`);
  });
  const session = new Session();
  session.dispatcher.subscribe(ToolInvoked, (event) => {
    const args = event.rawArguments;
    print(`  > ${event.name} ${typeof args === 'string' ? args : JSON.stringify(args)}`);
    print(indent(`${event.outcome}: ${event.result.message}`, '    '));
  });

  print(`Support desk on ${mode}`);
  print(`Customer: ${customerMessage}`);
  const started = Date.now();
  // The TurnPrinter replaces the adapter bound in the container for this evaluation only.
  const response = await runtime.evaluate(supportDeskPrompt, {
    adapter,
    params: [new PlanningToolsParams({ strategy: PlanningStrategy.PLAN_ACT_REFLECT })],
    input: customerMessage,
    session,
    deadline: Deadline.in(180_000),
  });
  const elapsed = Date.now() - started;
  script?.assertDone();

  print('');
  print('Plan:');
  print(indent(session.slice(Plan).latest()?.render() ?? '<no plan>', '  '));
  print('Tickets:');
  for (const ticket of session.slice(Ticket).all()) print(`  ${ticket.render()}`);
  const answer = response.output as SupportAnswer;
  print(
    `Answer (${answer.resolution}, ticket ${answer.ticketId ?? 'none'}, articles ${answer.articleIds.join(', ') || 'none'}):`,
  );
  print(`  ${answer.reply}`);
  const refused = response.toolCalls.filter((call) => !call.result.success).length;
  print(
    `Done in ${response.turns} turns, ${response.toolCalls.length} tool calls (${refused} refused), ` +
      `${response.usage?.inputTokens ?? 0} input + ${response.usage?.outputTokens ?? 0} output tokens, ${elapsed} ms.`,
  );
  return { response, session, container };
}

function indent(text: string, prefix: string): string {
  return text.replace(/\n$/, '').replace(/^/gm, prefix);
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  await run();
}
