import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IsString } from 'class-validator';
import { MarkdownSection, Prompt, Session, ToolDefinition, ToolResult } from 'affordance';
import { exportSession } from 'affordance/inspector';
import { createTestRuntime, type ScriptedTurn } from 'affordance/testing';

class OrderParams {
  @IsString() orderId!: string;
}

const lookupOrder = new ToolDefinition({
  name: 'lookup_order',
  description: 'Look up an order.',
  params: OrderParams,
  readOnly: true,
  handler: (params) => ToolResult.ok({ orderId: params.orderId, status: 'shipped' }, 'Found it.'),
});

export const ordersPrompt = new Prompt({
  ns: 'docs',
  key: 'orders',
  sections: [
    new MarkdownSection({
      key: 'orders',
      title: 'Orders',
      template: 'Answer questions about orders.',
      tools: [lookupOrder],
    }),
  ],
});

// #region export
/** Runs one evaluation and writes its session's export to `directory`; returns the file. */
export async function runAndExport(script: readonly ScriptedTurn[], directory: string) {
  const agent = createTestRuntime({ script });
  const session = new Session();
  await agent.evaluate(ordersPrompt, { session, input: 'Where is A-7?' });

  const file = join(directory, `${session.sessionId}.json`);
  await writeFile(file, JSON.stringify(exportSession(session), null, 2));
  return file;
}
// #endregion export
