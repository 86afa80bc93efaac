import 'reflect-metadata';
import { IsString } from 'class-validator';
import {
  LoopIntervention,
  LoopStoppedError,
  MarkdownSection,
  Prompt,
  Session,
  ToolDefinition,
} from 'affordance';
import { createTestRuntime, type ScriptedTurn } from 'affordance/testing';

class FindOrderParams {
  @IsString() orderId!: string;
}

// #region prompt
const findOrder = new ToolDefinition({
  name: 'find_order',
  description: 'Find an order by its id.',
  params: FindOrderParams,
  readOnly: true,
  handler: (params: FindOrderParams) => {
    throw new Error(`no order '${params.orderId}'`);
  },
});

export const ordersPrompt = new Prompt({
  ns: 'docs',
  key: 'orders',
  sections: [
    new MarkdownSection({
      key: 'orders',
      title: 'Orders',
      template: 'Look orders up with find_order.',
      tools: [findOrder],
    }),
  ],
});
// #endregion prompt

/** What happened to an evaluation whose model repeats the same failing call. */
export interface StoppedLoop {
  readonly reason: string;
  readonly requests: number;
  readonly interventions: readonly string[];
}

// #region governor
export async function repeatFailingCall(): Promise<StoppedLoop> {
  // A model that asks for the same missing order on every turn.
  const same: ScriptedTurn = { toolCalls: [{ name: 'find_order', arguments: { orderId: 'A-1' } }] };
  const { runtime, adapter } = createTestRuntime({
    script: Array.from({ length: 20 }, () => same),
    runtime: { maxTurns: 20, governor: { repeatedFailures: 2 } },
  });
  const session = new Session();
  try {
    await runtime.evaluate(ordersPrompt, { session });
    throw new Error('the evaluation was expected to stop');
  } catch (error) {
    if (!LoopStoppedError.is(error)) throw error;
    return {
      reason: error.reason, // 'repeated-failure'
      requests: adapter.requests.length, // 3: two failures, the warning, one more failure
      interventions: session
        .slice(LoopIntervention)
        .all()
        .map((event) => `${event.action}: ${event.reason}`),
    };
  }
}
// #endregion governor
