import 'reflect-metadata';
import { Container } from 'inversify';

import {
  type EvaluationState,
  installAffordance,
  PolicyDecision,
  Prompt,
  Section,
  Session,
  Tool,
  type ToolContext,
  ToolDefinition,
  ToolExample,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { ScriptedAdapter, TEST_STATE_SECRET } from 'affordance/testing';

const refundSchema = {
  type: 'object',
  properties: { orderId: { type: 'string' }, amount: { type: 'number', exclusiveMinimum: 0 } },
  required: ['orderId', 'amount'],
  additionalProperties: false,
} as const;
interface Refund {
  orderId: string;
  amount: number;
}

/** A STATE slice the refund tool fills. */
class Refunded {
  constructor(readonly orderId: string) {}
}

@Section({ key: 'refunds', title: 'Refunds', template: 'Refund orders.' })
class RefundSection {
  @Tool({
    description: 'Refund an order.',
    params: refundSchema,
    approval: (params: Refund) => params.amount > 100,
    policies: [
      {
        name: 'no-test-orders',
        check: ({ params }) =>
          (params as Refund).orderId.startsWith('T-')
            ? PolicyDecision.deny('Test orders are never refunded.')
            : PolicyDecision.allow(),
      },
    ],
  })
  refundOrder(params: Refund, context: ToolContext): ToolResult {
    context.session.dispatch(new Refunded(params.orderId));
    return ToolResult.ok(null, `Refunded ${params.amount} on ${params.orderId}.`);
  }
}

const call = (callId: string, orderId: string, amount: unknown) => ({
  callId,
  name: 'refund_order',
  arguments: { orderId, amount },
});

describe('a JSON Schema params tool through policies, approval and streaming', () => {
  it('is declared with @Tool and offered with its JSON Schema', () => {
    const prompt = new Prompt({ ns: 'test', key: 'refunds', sections: [RefundSection] });
    const [tool] = prompt.render().tools;
    expect(tool?.params?.kind).toBe('json-schema');
    expect(tool?.params?.jsonSchema('standard').schema).toEqual(refundSchema);
  });

  it('denies by policy, pauses for approval with the parsed params, streams and resumes', async () => {
    const runtime = installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET });
    const prompt = new Prompt({ ns: 'test', key: 'refunds', sections: [RefundSection] });
    const session = new Session();
    const parts: string[] = [];
    let state: EvaluationState | undefined;
    for await (const part of runtime.stream(prompt, {
      session,
      adapter: new ScriptedAdapter([
        { toolCalls: [call('c1', 'T-1', 5), call('c2', 'A-1', -1), call('c3', 'A-2', 20)] },
        { toolCalls: [call('c4', 'A-3', 500)] },
      ]),
    })) {
      parts.push(part.type);
      if (part.type === 'interrupted') {
        state = part.interruption.state;
        expect(part.interruption.pending.map((pending) => pending.callId)).toEqual(['c4']);
      }
    }
    expect(parts.at(-1)).toBe('interrupted');
    const records = session.slice(ToolInvoked).all();
    expect(records.map((event) => [event.callId, event.outcome])).toEqual([
      ['c1', 'denied'],
      ['c2', 'failure'],
      ['c3', 'success'],
    ]);
    expect(records[2]?.params).toEqual({ orderId: 'A-2', amount: 20 });
    expect(session.slice(Refunded).all()).toEqual([new Refunded('A-2')]);
    if (state === undefined) throw new Error('no interrupted part');

    const done = await runtime.resume(prompt, state, [{ callId: 'c4', approved: true }], {
      adapter: new ScriptedAdapter([{ text: 'Refunded.' }]),
      session,
    });
    expect(done.status).toBe('completed');
    expect(session.slice(Refunded).all()).toEqual([new Refunded('A-2'), new Refunded('A-3')]);
  });

  it('checks worked examples of a JSON Schema tool are plain objects', () => {
    const build = (input: Refund | undefined) =>
      new ToolDefinition<Refund>({
        name: 'refund',
        description: 'Refund.',
        params: refundSchema,
        handler: () => ToolResult.ok(null),
        examples: [new ToolExample({ description: 'One refund.', input })],
      });
    expect(build({ orderId: 'A-1', amount: 5 }).examples[0]?.input).toEqual({
      orderId: 'A-1',
      amount: 5,
    });
    expect(() => build(undefined)).toThrow(
      /expects a plain object of its params schema, got undefined/,
    );
  });
});
