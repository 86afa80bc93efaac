import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { IsString } from 'class-validator';
import { Container } from 'inversify';

import { installAffordance, MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';

import { InMemoryOtel, spanTree } from './otel-harness.js';

class NoteParams {
  @IsString() text!: string;
}

const prompt = new Prompt({
  ns: 'test',
  key: 'direct',
  sections: [
    new MarkdownSection({
      key: 'notes',
      title: 'Notes',
      template: 'Notes.',
      tools: [
        new ToolDefinition({
          name: 'add_note',
          description: 'Add a note.',
          params: NoteParams,
          handler: (params) => ToolResult.ok(null, `Noted ${params.text}.`),
        }),
      ],
    }),
  ],
});

describe('otel: runtime.callTool (an MCP call, for one)', () => {
  const manager = new AsyncLocalStorageContextManager();

  beforeAll(() => {
    context.setGlobalContextManager(manager.enable());
  });

  afterAll(() => {
    manager.disable();
    context.disable();
  });

  it('records one execute_tool span per call, child of the active span, and the tool duration metric', async () => {
    const otel = new InMemoryOtel();
    const runtime = installAffordance(new Container(), { telemetry: otel.telemetry() });
    const server = otel.tracerProvider.getTracer('test-server');

    await server.startActiveSpan('POST /mcp', async (span) => {
      await runtime.callTool(prompt, { name: 'add_note', arguments: { text: 'a' }, callId: 'm-1' });
      await runtime.callTool(prompt, { name: 'add_note', arguments: { text: 7 }, callId: 'm-2' });
      span.end();
    });

    const spans = otel.spans();
    expect(spanTree(spans)).toEqual([
      'POST /mcp [internal]',
      '  execute_tool add_note [internal]',
      '  execute_tool add_note [internal]',
    ]);
    const [, ok, failed] = spans;
    expect(ok?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add_note',
      'gen_ai.tool.call.id': 'm-1',
      'affordance.tool.outcome': 'success',
    });
    expect(ok?.attributes['error.type']).toBeUndefined();
    expect(failed?.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'm-2',
      'error.type': 'tool_error',
    });
    const durations = await otel.histogram('gen_ai.execute_tool.duration');
    expect(durations.reduce((sum, point) => sum + point.value.count, 0)).toBe(2);
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
