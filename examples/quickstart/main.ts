import 'reflect-metadata';

import { IsString, IsUrl } from 'class-validator';

import { Deadline, Describe, Prompt, Session, ToolInvoked } from 'affordance';
import { createTestRuntime, type ScriptedTurn } from 'affordance/testing';

import { EntityStore } from './entity-store.js';
import { GuidanceParams, GuidanceSection } from './guidance-section.js';

/** The structured answer the prompt asks for. */
export class EntityAnswer {
  @Describe('The entity the user asked about') @IsString() entityId!: string;
  @Describe('Where it is documented') @IsUrl({ require_tld: false }) documentUrl!: string;
  @Describe('One sentence for the user') @IsString() summary!: string;
}

/**
 * The model's side of this offline run, scripted: a call with a typo the
 * validator rejects, the corrected call, then a structured answer.
 */
export const scriptedModel: readonly ScriptedTurn[] = [
  {
    text: 'Let me look that up.',
    toolCalls: [{ name: 'lookup_entity', arguments: { entityId: 'ACME 42', verbose: true } }],
    usage: { inputTokens: 412, outputTokens: 31 },
  },
  {
    toolCalls: [
      { name: 'lookup_entity', arguments: { entityId: 'acme-42', includeRelated: true } },
    ],
    usage: { inputTokens: 498, outputTokens: 24 },
  },
  {
    text: JSON.stringify({
      entityId: 'acme-42',
      documentUrl: 'https://docs.example.test/acme-42',
      summary: 'acme-42 is documented at docs.example.test and is related to acme-7.',
    }),
    usage: { inputTokens: 561, outputTokens: 48 },
  },
];

/** The quickstart prompt: one decorated section and a structured output. */
export const quickstartPrompt = new Prompt({
  ns: 'examples/tooling',
  key: 'tools_overview',
  sections: [GuidanceSection],
  output: EntityAnswer,
});

/**
 * Runs the quickstart agent offline against the scripted model and prints each
 * turn, each tool call with its arguments and outcome, the answer, and a
 * summary of tokens and time. Returns the response and the session.
 */
export async function run(print: (line: string) => void = console.log) {
  // Affordance installed in a new container, the scripted model bound as its ProviderAdapter.
  const { runtime, adapter } = createTestRuntime({
    script: scriptedModel,
    configure: (container) => container.bind(EntityStore).toSelf().inSingletonScope(),
  });
  const session = new Session();
  session.dispatcher.subscribe(ToolInvoked, (event) => {
    print(`  tool ${event.name}(${String(event.rawArguments)}) → ${event.outcome}`);
    print(event.renderedMessage.replace(/^(?=.)/gm, '    '));
  });

  print(`Prompt ${quickstartPrompt.ns}/${quickstartPrompt.key}:`);
  print(quickstartPrompt.render({ params: [new GuidanceParams()] }).text.replace(/^/gm, '  | '));
  const started = Date.now();
  const response = await runtime.evaluate(quickstartPrompt, {
    params: [new GuidanceParams()],
    input: 'Where is acme-42 documented?',
    session,
    deadline: Deadline.in(30_000),
  });
  adapter.assertDone(); // the model was asked for every scripted turn
  print(`Answer (${EntityAnswer.name}):`);
  print(`  ${JSON.stringify(response.output)}`);
  const usage = response.usage;
  print(
    `Done in ${response.turns} turns, ${response.toolCalls.length} tool calls ` +
      `(${response.toolCalls.filter((call) => call.result.success).length} succeeded), ` +
      `${usage?.inputTokens ?? 0} input + ${usage?.outputTokens ?? 0} output tokens, ${Date.now() - started} ms.`,
  );
  return { response, session };
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  await run();
}
