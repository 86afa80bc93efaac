import { SpanStatusCode } from '@opentelemetry/api';
import { Container } from 'inversify';

import { installAffordance, MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';

import { eventNames, InMemoryOtel } from '../otel/otel-harness.js';

/** A prompt with one tool that always needs a person's approval. */
function refundPrompt(): Prompt {
  return new Prompt({
    ns: 'hardening',
    key: 'direct-approval',
    sections: [
      new MarkdownSection({
        key: 'refunds',
        title: 'Refunds',
        template: 'Refund orders.',
        tools: [
          new ToolDefinition({
            name: 'refund',
            description: 'Refund an order.',
            approval: true,
            handler: () => ToolResult.ok(null, 'Refunded.'),
          }),
        ],
      }),
    ],
  });
}

function tracedRuntime(): { otel: InMemoryOtel; runtime: ReturnType<typeof installAffordance> } {
  const otel = new InMemoryOtel();
  const runtime = installAffordance(new Container(), { telemetry: otel.telemetry() });
  return { otel, runtime };
}

describe('runtime.callTool on a tool that needs approval is one execute_tool span', () => {
  it('an approved call: one span, with the request, the decision and the outcome', async () => {
    const { otel, runtime } = tracedRuntime();

    const outcome = await runtime.callTool(
      refundPrompt(),
      { name: 'refund', callId: 'r-1' },
      { approve: () => true },
    );

    expect(outcome.message).toBe('Refunded.');
    const spans = otel.spans();
    expect(spans.map((span) => span.name)).toEqual(['execute_tool refund']);
    const [span] = spans;
    expect(span?.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'r-1',
      'affordance.tool.outcome': 'success',
    });
    expect(span?.events.map((event) => [event.name, event.attributes])).toEqual([
      ['affordance.approval.requested', {}],
      ['affordance.approval.decided', { 'affordance.approval.approved': true }],
    ]);
    const durations = await otel.histogram('gen_ai.execute_tool.duration');
    expect(durations.reduce((sum, point) => sum + point.value.count, 0)).toBe(1);
  });

  it('a rejected call (and one without an approver): one span each, denied by the decision', async () => {
    const { otel, runtime } = tracedRuntime();

    await runtime.callTool(
      refundPrompt(),
      { name: 'refund', callId: 'r-2' },
      { approve: () => ({ callId: 'r-2', approved: false, message: 'Not today.' }) },
    );
    await runtime.callTool(refundPrompt(), { name: 'refund', callId: 'r-3' });

    const spans = otel.spans();
    expect(spans.map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual(['r-2', 'r-3']);
    for (const span of spans) {
      expect(span.attributes).toMatchObject({
        'affordance.tool.outcome': 'denied',
        'error.type': 'denied',
      });
      expect(eventNames(span)).toEqual([
        'affordance.approval.requested',
        'affordance.approval.decided',
        'affordance.tool.denied',
        'affordance.tool.rolled_back',
      ]);
    }
  });

  it('with content capture, the one span carries the reason the call waited', async () => {
    const otel = new InMemoryOtel();
    const runtime = installAffordance(new Container(), {
      telemetry: otel.telemetry({ captureContent: true }),
    });

    await runtime.callTool(refundPrompt(), { name: 'refund' }, { approve: () => true });

    const spans = otel.spans();
    expect(spans.map((span) => span.name)).toEqual(['execute_tool refund']);
    const [span] = spans;
    expect(span?.events[0]?.name).toBe('affordance.approval.requested');
    expect(span?.events[0]?.attributes).toEqual({
      'affordance.approval.reason': "Tool 'refund' needs a person's approval.",
    });
  });

  it('an approver that throws: the one span ends marked with the error (outcome stopped), and callTool rejects', async () => {
    const { otel, runtime } = tracedRuntime();
    const failure = new Error('approval service down');

    await expect(
      runtime.callTool(
        refundPrompt(),
        { name: 'refund', callId: 'r-4' },
        {
          approve: () => {
            throw failure;
          },
        },
      ),
    ).rejects.toBe(failure);

    const spans = otel.spans();
    expect(spans.map((span) => span.name)).toEqual(['execute_tool refund']);
    expect(spans[0]?.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'r-4',
      'affordance.tool.outcome': 'stopped',
      'error.type': 'Error',
    });
    expect(spans[0]?.status.code).toBe(SpanStatusCode.ERROR);
    // No decision was made: the span carries the approver's failure, not a decision event.
    expect(spans[0]?.events).toEqual([]);
  });
});
