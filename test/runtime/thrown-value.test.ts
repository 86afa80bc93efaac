import { IsString } from 'class-validator';

import {
  MarkdownSection,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { createTestRuntime } from 'affordance/testing';

import { InMemoryOtel, only } from '../otel/otel-harness.js';

class Params {
  @IsString() id!: string;
}

/** What the store throws, with data the model must not read. */
class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(readonly connection: string) {
    super('store unavailable');
  }
}

function prompt(): Prompt {
  return new Prompt({
    ns: 'test',
    key: 'thrown',
    sections: [
      new MarkdownSection({
        key: 's',
        title: 'S',
        template: 's',
        tools: [
          new ToolDefinition<Params>({
            name: 'load',
            description: 'Load a record.',
            params: Params,
            handler: (): ToolResult => {
              throw new StoreError('postgres://admin:secret@db');
            },
          }),
          new ToolDefinition<Params>({
            name: 'ok',
            description: 'Succeed.',
            params: Params,
            handler: () => ToolResult.ok(null, 'fine'),
          }),
        ],
      }),
    ],
  });
}

const script = [
  {
    toolCalls: [
      { name: 'load', arguments: { id: 'a' } },
      { name: 'ok', arguments: { id: 'b' } },
    ],
  },
  { text: 'Done.' },
];

describe('the thrown value of a failed call', () => {
  it('is kept beside the call record, with its stack, and never reaches the model', async () => {
    const agent = createTestRuntime({ script });
    const session = new Session();
    await agent.evaluate(prompt(), { session });
    const [failed, succeeded] = session.slice(ToolInvoked).all();
    const thrown = ToolInvoked.thrownBy(failed as ToolInvoked);
    expect(thrown).toBeInstanceOf(StoreError);
    expect((thrown as StoreError).stack).toContain('store unavailable');
    expect(ToolInvoked.thrownBy(succeeded as ToolInvoked)).toBeUndefined();
    const sent = JSON.stringify(agent.adapter.requests[1]?.messages);
    expect(sent).toContain('store unavailable');
    expect(sent).not.toContain('postgres://');
    expect(JSON.stringify(failed)).not.toContain('postgres://');
  });

  it('is recorded as an exception on the tool span when content capture is on', async () => {
    const otel = new InMemoryOtel();
    const agent = createTestRuntime({
      script,
      runtime: { telemetry: otel.telemetry({ captureContent: true }) },
    });
    await agent.evaluate(prompt());
    const span = only(otel.spans(), 'execute_tool load');
    const exception = span.events.find((event) => event.name === 'exception');
    expect(exception?.attributes?.['exception.type']).toBe('StoreError');
    expect(String(exception?.attributes?.['exception.stacktrace'])).toContain('store unavailable');
  });
});
