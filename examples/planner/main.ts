import 'reflect-metadata';

import {
  Filesystem,
  MarkdownSection,
  Prompt,
  ResourceRegistry,
  Session,
  ToolInvoked,
} from 'affordance';
import { FilesystemToolsSection } from 'affordance/filesystem';
import {
  Plan,
  PlanningStrategy,
  PlanningToolsParams,
  PlanningToolsSection,
} from 'affordance/planning';
import { createTestRuntime } from 'affordance/testing';

import { scriptedModel } from './scripted-model.js';
import { releaseWorkspace } from './workspace.js';

/** The planner's prompt: its role, the planning tools and the filesystem tools. */
export const plannerPrompt = new Prompt({
  ns: 'examples/planner',
  key: 'release',
  sections: [
    new MarkdownSection({
      key: 'role',
      title: 'Role',
      template:
        'You prepare releases of this repository. Plan the work, keep the plan up to date, and change files only through the tools.',
    }),
    PlanningToolsSection,
    FilesystemToolsSection,
  ],
});

/**
 * Runs the planner offline against the scripted model: prints every tool call
 * with its arguments and outcome, then the final plan, the files and the
 * answer. Returns the response, the session and the workspace.
 */
export async function run(print: (line: string) => void = console.log) {
  const workspace = releaseWorkspace();
  const { runtime, adapter } = createTestRuntime({
    script: scriptedModel,
    runtime: {
      resources: new ResourceRegistry().bind(Filesystem, { create: () => workspace }),
    },
  });
  const session = new Session();
  session.dispatcher.subscribe(ToolInvoked, (event) => {
    print(`> ${event.name} ${String(event.rawArguments)}`);
    const { message, value } = event.result;
    print(`  ${event.outcome === 'success' ? 'ok' : event.outcome}: ${message}`);
    // Plans are summarised here and shown in full at the end; file contents are shown as the model saw them.
    if (value instanceof Plan) print(`  plan: ${summarise(value)}`);
    else if (typeof value === 'string' && value !== '') print(indent(value, '  | '));
  });

  const params = [new PlanningToolsParams({ strategy: PlanningStrategy.PLAN_ACT_REFLECT })];
  const rendered = plannerPrompt.render({ params });
  print(`Prompt ${plannerPrompt.ns}/${plannerPrompt.key} with tools:`);
  print(`  ${rendered.tools.map((tool) => tool.name).join(', ')}`);
  print('');

  const response = await runtime.evaluate(plannerPrompt, {
    params,
    session,
    input: 'Prepare release 1.2.0.',
  });
  adapter.assertDone(); // the model was asked for every scripted turn

  print('');
  print('Plan:');
  print(indent(session.slice(Plan).latest()?.render() ?? '<none>'));
  print('');
  print('Files:');
  for (const path of await workspace.glob('**/*')) {
    print(`  ${path}`);
    print(indent(await workspace.readText(path), '    | '));
  }
  print('');
  print(`Answer: ${response.text ?? ''}`);
  const failed = response.toolCalls.filter((call) => !call.result.success).length;
  print(
    `Done in ${response.turns} turns, ${response.toolCalls.length} tool calls (${failed} refused).`,
  );
  return { response, session, workspace };
}

function summarise(plan: Plan): string {
  const done = plan.steps.filter((step) => step.status === 'done').length;
  const current = plan.steps.find((step) => step.status === 'in_progress');
  const working = current === undefined ? '' : `, working on ${current.stepId}`;
  return `${plan.status}, ${done} of ${plan.steps.length} steps done${working}`;
}

function indent(text: string, prefix = '  '): string {
  return text.replace(/\n$/, '').replace(/^/gm, prefix);
}

if (
  process.argv[1] !== undefined &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
) {
  await run();
}
