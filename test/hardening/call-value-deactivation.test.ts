import { inject } from 'inversify';

import {
  Prompt,
  Section,
  Tool,
  ToolCallId,
  ToolCallSignal,
  ToolContext,
  ToolResult,
} from 'affordance';
import { createTestRuntime } from 'affordance/testing';

/** A section the application does not bind, injecting the three call values through its constructor. */
@Section({ key: 'audit', title: 'Audit', template: 'Audit what you are asked to.' })
class AuditSection {
  constructor(
    @inject(ToolCallId) private readonly callId: string,
    @inject(ToolCallSignal) private readonly signal: AbortSignal,
    @inject(ToolContext) private readonly context: ToolContext,
  ) {}

  @Tool({ name: 'audit', description: 'Audit one thing.' })
  audit(_params: undefined, context: ToolContext): ToolResult<null> {
    const same = this.context === context && this.signal === context.signal;
    return new ToolResult({ message: `${this.callId} ${same ? 'same' : 'other'}` });
  }
}

const prompt = new Prompt({ ns: 'hardening', key: 'audit', sections: [AuditSection] });

const script = [
  { toolCalls: [{ name: 'audit', callId: 'a1' }] },
  { toolCalls: [{ name: 'audit', callId: 'a2' }] },
  { text: 'Audited.' },
];

describe('onDeactivation hooks of call values run for a section built per call', () => {
  it('a leak check counting deactivations sees each call value of each call let go', async () => {
    const deactivated: string[] = [];
    const agent = createTestRuntime({
      script,
      configure: (container) => {
        container.onDeactivation(ToolCallId, (id) => {
          deactivated.push(`id ${id}`);
        });
        container.onDeactivation(ToolCallSignal, () => {
          deactivated.push('signal');
        });
        container.onDeactivation(ToolContext, (context) => {
          deactivated.push(`context ${context.callId}`);
        });
      },
    });

    const response = await agent.evaluate(prompt);

    expect(response.toolCalls.map((call) => call.message)).toEqual(['a1 same', 'a2 same']);
    // Hooked call values take the call container, which lets go of them when the call ends.
    expect(agent.runtime.directConstruction(AuditSection)).toBeUndefined();
    expect(deactivated.sort()).toEqual(
      ['id a1', 'signal', 'context a1', 'id a2', 'signal', 'context a2'].sort(),
    );
  });

  it('a hook on a call value the section does not inject leaves it on the fast path, as the container would', async () => {
    @Section({ key: 'context-only', title: 'Context', template: 'Uses the context.' })
    class ContextOnlySection {
      constructor(@inject(ToolContext) readonly context: ToolContext) {}

      @Tool({ name: 'audit', description: 'Audit one thing.' })
      audit(_params: undefined, context: ToolContext): ToolResult<null> {
        return new ToolResult({ message: context.callId });
      }
    }
    let deactivated = 0;
    const agent = createTestRuntime({
      script: [{ toolCalls: [{ name: 'audit', callId: 'c1' }] }, { text: 'Done.' }],
      configure: (container) => {
        container.onDeactivation(ToolCallId, () => {
          deactivated += 1;
        });
      },
    });

    await agent.evaluate(
      new Prompt({ ns: 'hardening', key: 'context-only', sections: [ContextOnlySection] }),
    );

    // Inversify lets go only of the values it gave out: ToolCallId was never injected.
    expect(deactivated).toBe(0);
    expect(agent.runtime.directConstruction(ContextOnlySection)?.arguments).toEqual([
      { from: 'call', id: ToolContext },
    ]);
  });

  it('without such hooks the section is still built with new and its planned arguments (the fast path)', async () => {
    const agent = createTestRuntime({ script });

    await agent.evaluate(prompt);

    // `directConstruction` is internal: it answers how the runtime builds the class per call.
    expect(agent.runtime.directConstruction(AuditSection)?.arguments).toEqual([
      { from: 'call', id: ToolCallId },
      { from: 'call', id: ToolCallSignal },
      { from: 'call', id: ToolContext },
    ]);
  });
});
