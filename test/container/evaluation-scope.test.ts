import { inject, injectable, type ServiceIdentifier } from 'inversify';

import {
  ConfigurationError,
  EvaluationId,
  Prompt,
  ResourceRegistry,
  Section,
  Session,
  Tool,
  ToolCallId,
  ToolContext,
  ToolResult,
} from 'affordance';
import { createTestRuntime, type ScriptedTurn } from 'affordance/testing';

import { EvaluationScope } from '../../src/runtime/scope/evaluation-scope.js';
import { catchError } from '../support/catch-error.js';

/** An application singleton: records what each call saw. */
@injectable()
class ProbeLog {
  readonly calls: { section: ProbeSection; context: ToolContext }[] = [];
  /** Deactivations counted so far, by service, for checks made while a call runs. */
  readonly deactivated = new Map<string, number>();
  readonly deactivatedDuringCalls: number[] = [];
  /** Extra work each call does, set by a test. */
  onCall: (context: ToolContext) => void = () => undefined;
}

/** A transient application service that depends on call-scoped values. */
@injectable()
class CallLedger {
  constructor(
    @inject(ToolCallId) readonly callId: string,
    @inject(ToolContext) readonly context: ToolContext,
  ) {}
}

@Section({ key: 'probe', title: 'Probe', template: 'Report what you were built with.' })
class ProbeSection {
  constructor(
    @inject(ProbeLog) readonly log: ProbeLog,
    @inject(ToolContext) readonly context: ToolContext,
    @inject(ToolCallId) readonly callId: string,
    @inject(Session) readonly session: Session,
    @inject(EvaluationId) readonly evaluationId: string,
    @inject(CallLedger) readonly ledger: CallLedger,
  ) {}

  @Tool({ name: 'probe', description: 'Report the call id the section was built with.' })
  probe(_params: undefined, context: ToolContext): ToolResult<null> {
    this.log.calls.push({ section: this, context });
    this.log.onCall(context);
    this.log.deactivatedDuringCalls.push(this.log.deactivated.get('ToolContext') ?? 0);
    return new ToolResult({ message: `built for ${this.callId}` });
  }
}

const prompt = new Prompt({ ns: 'test', key: 'probe', sections: [ProbeSection] });

const script: ScriptedTurn[] = [
  {
    toolCalls: [
      { callId: 'c1', name: 'probe' },
      { callId: 'c2', name: 'probe' },
    ],
  },
  { toolCalls: [{ callId: 'c3', name: 'probe' }] },
  { text: 'Done.' },
];

function setUp() {
  const log = new ProbeLog();
  const runtime = createTestRuntime({
    script,
    configure: (container) => {
      container.bind(ProbeLog).toConstantValue(log);
      container.bind(CallLedger).toSelf();
    },
  });
  return { ...runtime, log };
}

describe(EvaluationScope, () => {
  it("should build each call's section with application and call-scoped values injected", async () => {
    const { adapter, evaluate, log } = setUp();
    const session = new Session();

    const response = await evaluate(prompt, { session });

    expect(response.toolCalls.map((call) => call.message)).toEqual([
      'built for c1',
      'built for c2',
      'built for c3',
    ]);
    const sections = log.calls.map((call) => call.section);
    const contexts = log.calls.map((call) => call.context);
    expect(new Set(sections).size).toBe(3);
    expect(new Set(contexts).size).toBe(3);
    for (const { section, context } of log.calls) {
      expect(section.log).toBe(log);
      expect(section.context).toBe(context);
      expect(section.callId).toBe(context.callId);
      expect(section.session).toBe(session);
      expect(section.evaluationId).toBe(response.evaluationId);
      expect(section.ledger.callId).toBe(context.callId);
      expect(section.ledger.context).toBe(context);
      expect(Object.isFrozen(context)).toBe(true);
      expect(context.session).toBe(session);
      expect(context.adapter).toBe(adapter);
      expect(context.services.get(ProbeLog)).toBe(log);
    }
    expect(contexts.map((context) => context.callId)).toEqual(['c1', 'c2', 'c3']);
  });

  it('should use a section class the application bound itself', async () => {
    const log = new ProbeLog();
    const { evaluate } = createTestRuntime({
      script,
      configure: (container) => {
        container.bind(ProbeLog).toConstantValue(log);
        container.bind(CallLedger).toSelf();
        container.bind(ProbeSection).toSelf();
      },
    });

    await evaluate(prompt);

    expect(log.calls.map(({ section }) => section.callId)).toEqual(['c1', 'c2', 'c3']);
  });

  it('should run the deactivation hooks of call values as each call ends, and of evaluation values at the end', async () => {
    const { evaluate, container, log } = setUp();
    const activated = new Map<string, number>();
    const count = (map: Map<string, number>, name: string) => {
      map.set(name, (map.get(name) ?? 0) + 1);
    };
    const watch = (id: ServiceIdentifier, name: string) => {
      container.onActivation(id, (_context, value: unknown) => {
        count(activated, name);
        return value;
      });
      container.onDeactivation(id, () => {
        count(log.deactivated, name);
      });
    };
    watch(ToolContext, 'ToolContext');
    watch(ToolCallId, 'ToolCallId');
    watch(Session, 'Session');
    watch(EvaluationId, 'EvaluationId');

    await evaluate(prompt);

    expect(Object.fromEntries(log.deactivated)).toEqual({
      ToolContext: 3,
      ToolCallId: 3,
      Session: 1,
      EvaluationId: 1,
    });
    expect(activated).toEqual(log.deactivated);
    // Each call's values were gone before the next call started.
    expect(log.deactivatedDuringCalls).toEqual([0, 1, 2]);
  });

  it('should close tool-call resources when each call ends and evaluation resources at the end', async () => {
    const events: string[] = [];
    class Scratch {
      constructor(readonly id: number) {
        events.push(`open scratch ${id}`);
      }
      close(): void {
        events.push(`close scratch ${this.id}`);
      }
    }
    class Cache {
      constructor() {
        events.push('open cache');
      }
      close(): void {
        events.push('close cache');
      }
    }
    let scratches = 0;
    const resources = new ResourceRegistry()
      .bind(Scratch, { scope: 'tool-call', create: () => new Scratch(++scratches) })
      .bind(Cache, { create: () => new Cache() });
    const { evaluate, log } = setUp();
    log.onCall = (context) => {
      const scratch = context.resources.get(Scratch);
      context.resources.get(Cache);
      events.push(`use scratch ${scratch.id}`);
    };

    await evaluate(prompt, { resources });

    expect(events).toEqual([
      'open scratch 1',
      'open cache',
      'use scratch 1',
      'close scratch 1',
      'open scratch 2',
      'use scratch 2',
      'close scratch 2',
      'open scratch 3',
      'use scratch 3',
      'close scratch 3',
      'close cache',
    ]);
    const [firstCall] = log.calls;
    const late = catchError(ConfigurationError, () => firstCall?.context.resources.get(Scratch));
    expect(late.message).toContain('requested from a closed resource context');
  });

  it('should merge per-evaluation resources over the runtime ones', async () => {
    class Greeting {
      constructor(readonly text: string) {}
    }
    const log = new ProbeLog();
    const { adapter, evaluate } = createTestRuntime({
      script: [{ toolCalls: [{ callId: 'c1', name: 'probe' }] }, { text: 'Done.' }],
      runtime: {
        resources: new ResourceRegistry().value(Greeting, new Greeting('from the runtime')),
      },
      configure: (container) => {
        container.bind(ProbeLog).toConstantValue(log);
        container.bind(CallLedger).toSelf();
      },
    });

    const greetings: string[] = [];
    log.onCall = (context) => greetings.push(context.resources.get(Greeting).text);

    await evaluate(prompt, {
      resources: new ResourceRegistry().value(Greeting, new Greeting('from the evaluation')),
    });
    adapter.push({ toolCalls: [{ callId: 'c2', name: 'probe' }] }, { text: 'Done.' });
    await evaluate(prompt);

    expect(greetings).toEqual(['from the evaluation', 'from the runtime']);
  });
});
