import { inject, injectable } from 'inversify';

import { Section } from '../../src/decorators/section.js';
import { Tool } from '../../src/decorators/tool.js';
import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { Prompt } from '../../src/prompt/prompt.js';
import { Session } from '../../src/session/session.js';
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
    const { adapter, runtime, evaluate } = createTestRuntime({
      configure: (c) => c.bind(AuditLog).toSelf().inSingletonScope(),
      script: [{ toolCalls: [{ name: 'who_called' }] }, { text: 'done' }],
    });
    const prompt = new Prompt({ ns: 'demo', key: 'audit', sections: [AuditSection] });

    expect(() => {
      runtime.prepare(prompt);
    }).toThrow(ConfigurationError);
    const error = await catchRejection(ConfigurationError, () => evaluate(prompt));
    expect(error.message).toContain(
      'AuditSection → AuditLog (singleton) → affordance.tool-context (call scope)',
    );
    expect(adapter.requests).toHaveLength(0);
    expect(constructed).toBe(0);
  });

  it('should pass when the service is transient, each call seeing its own context', async () => {
    const { evaluate } = createTestRuntime({
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
    const response = await evaluate(prompt);
    expect(response.toolCalls.map((call) => call.result.value)).toEqual(['a', 'b']);
  });
});

describe('a section that injects evaluation values only', () => {
  @Section({ key: 'session-echo', title: 'Session echo' })
  class SessionEchoSection {
    constructor(@inject(Session) readonly session: Session) {}

    @Tool({ name: 'session_id', description: 'Say which session this is.' })
    id(_params: undefined, context: ToolContext): ToolResult<string> {
      if (context.session !== this.session) throw new Error('injected another session');
      return ToolResult.ok(this.session.sessionId);
    }
  }

  it('should be resolved per call from its own evaluation, without a call container', async () => {
    const prompt = new Prompt({ ns: 'demo', key: 'session-echo', sections: [SessionEchoSection] });
    const run = async (): Promise<{ session: Session; values: unknown[] }> => {
      const { runtime, evaluate } = createTestRuntime({
        script: [{ toolCalls: [{ name: 'session_id' }, { name: 'session_id' }] }, { text: 'done' }],
      });
      runtime.prepare(prompt);
      expect(runtime.isCallFree(SessionEchoSection)).toBe(true);
      const session = new Session();
      const response = await evaluate(prompt, { session });
      return { session, values: response.toolCalls.map((call) => call.result.value) };
    };
    const [first, second] = await Promise.all([run(), run()]);
    expect(first.values).toEqual([first.session.sessionId, first.session.sessionId]);
    expect(second.values).toEqual([second.session.sessionId, second.session.sessionId]);
    expect(first.session.sessionId).not.toBe(second.session.sessionId);
  });

  it('should not be call-free when it injects ToolContext', () => {
    const { runtime } = createTestRuntime();
    runtime.prepare(new Prompt({ ns: 'demo', key: 'audit2', sections: [ContextSection] }));
    expect(runtime.isCallFree(ContextSection)).toBe(false);
  });
});

@Section({ key: 'context', title: 'Context' })
class ContextSection {
  constructor(@inject(ToolContext) readonly context: ToolContext) {}

  @Tool({ name: 'call_id', description: 'Say which call this is.' })
  id(_params: undefined, _context: ToolContext): ToolResult<string> {
    return ToolResult.ok(this.context.callId);
  }
}
