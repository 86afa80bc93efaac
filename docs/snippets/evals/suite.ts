// #region suite
import {
  calledInOrder,
  defineEvalSuite,
  type EvalObservation,
  type EvalScore,
  type EvalScorer,
  neverCalled,
} from 'affordance/evals';
import { ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

import { createRuntime, RefundOrder, refundPrompt } from './refund-desk.js';

/** A scorer of your own: a class, resolved from the runtime's container (so it can inject services). */
export class PoliteReply implements EvalScorer {
  readonly name = 'polite-reply';

  score(trial: EvalObservation): EvalScore {
    const reply = (trial.output as { reply?: string } | null)?.reply ?? '';
    const passed = /sorry|thank/i.test(reply);
    return { scorer: this.name, score: passed ? 1 : 0, passed, reason: `reply: "${reply}"` };
  }
}

export const refundSuite = defineEvalSuite({
  name: 'refunds',
  prompt: refundPrompt,
  runtime: createRuntime,
  // Offline, each case brings its scripted model; leave this out to use the provider bound in the container.
  adapter: (evalCase) => new ScriptedAdapter(evalCase.data?.['script'] as ScriptedTurn[]),
  scorers: [PoliteReply], // every case
  cases: [
    {
      id: 'late-order',
      input: 'Order A-17 came a week late. Can I get my money back?',
      tags: ['refunds'],
      expected: {
        calls: [
          { tool: 'lookup_order', arguments: { orderId: 'A-17' } },
          { tool: 'refund_order', arguments: { orderId: 'A-17' } },
        ],
        output: { decision: 'refunded' },
        maxTurns: 4,
      },
      scorers: [
        calledInOrder([{ tool: 'refund_order', arguments: RefundOrder }], { name: 'valid-refund' }),
      ],
      data: { script: lateOrderScript() },
    },
    {
      id: 'no-reason',
      input: 'Refund A-18, I changed my mind.',
      expected: { output: { decision: 'declined' }, contains: 'A-18' },
      scorers: [neverCalled('refund_order')],
      data: { script: changedMindScript() },
    },
  ],
});
// #endregion suite

function answer(decision: string, reply: string): ScriptedTurn {
  return {
    text: JSON.stringify({ decision, reply }),
    usage: { inputTokens: 400, outputTokens: 30 },
  };
}

function lateOrderScript(): ScriptedTurn[] {
  return [
    { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-17' } }] },
    { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A-17', reason: 'late' } }] },
    answer('refunded', 'Sorry for the delay: order A-17 is refunded.'),
  ];
}

function changedMindScript(): ScriptedTurn[] {
  // The model refunds anyway: the suite should catch it.
  return [
    { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A-18', reason: 'late' } }] },
    answer('refunded', 'Order A-18 is refunded.'),
  ];
}
