import { inject, injectable } from 'inversify';

import { Section } from '../../src/decorators/section.js';
import { Tool } from '../../src/decorators/tool.js';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { Prompt } from '../../src/prompt/prompt.js';
import { createTestRuntime } from '../../src/testing/create-test-runtime.js';
import { ToolContext } from '../../src/tools/tool-context.js';
import { ToolResult } from '../../src/tools/tool-result.js';
import { catchRejection } from '../support/catch-error.js';

let constructed = 0;

@injectable()
class AuditLog {
  constructor(@inject(ToolContext) readonly context: ToolContext) {
    constructed += 1;
  }
}

@Section({ key: 'audit', title: 'Audit' })
class AuditSection {
  constructor(@inject(AuditLog) readonly log: AuditLog) {}

  @Tool({ name: 'who_called', description: 'Say which call this is.' })
  who(_params: undefined, context: ToolContext): ToolResult<string> {
    return ToolResult.ok(this.log.context.callId, `call ${context.callId}`);
  }
}

describe('a singleton that depends on a call-scoped value', () => {
  it('should be a ConfigurationError before the first tool call, naming the path and the fix', async () => {
    const { adapter, runtime } = createTestRuntime({
      configure: (c) => c.bind(AuditLog).toSelf().inSingletonScope(),
      script: [{ toolCalls: [{ name: 'who_called' }] }, { text: 'done' }],
    });
    const prompt = new Prompt({ ns: 'demo', key: 'audit', sections: [AuditSection] });

    expect(() => {
      runtime.prepare(prompt);
    }).toThrow(ConfigurationError);
    const error = await catchRejection(ConfigurationError, () => adapter.evaluate(prompt));
    expect(error.message).toContain(
      'AuditSection → AuditLog (singleton) → affordance.tool-context (call scope)',
    );
    expect(adapter.requests).toHaveLength(0);
    expect(constructed).toBe(0);
  });

  it('should pass when the service is transient, each call seeing its own context', async () => {
    const { adapter } = createTestRuntime({
      configure: (c) => c.bind(AuditLog).toSelf(),
      script: [
        {
          toolCalls: [
            { name: 'who_called', callId: 'a' },
            { name: 'who_called', callId: 'b' },
          ],
        },
        { text: 'done' },
      ],
    });
    const prompt = new Prompt({ ns: 'demo', key: 'audit', sections: [AuditSection] });
    const response = await adapter.evaluate(prompt);
    expect(response.toolCalls.map((call) => call.result.value)).toEqual(['a', 'b']);
  });
});
