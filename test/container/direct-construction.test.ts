import { inject, injectable, postConstruct } from 'inversify';

import {
  EvaluationId,
  Prompt,
  Section,
  Session,
  Tool,
  ToolCallId,
  ToolCallSignal,
  ToolContext,
  ToolResult,
} from 'affordance';
import { ProviderAdapter } from 'affordance/provider';
import { createTestRuntime, ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

/** What each call's section instance saw, in call order. */
@injectable()
class Seen {
  readonly sections: object[] = [];
}

/** A transient application service with no call values: resolved in the evaluation scope. */
@injectable()
class Clerk {
  constructor(@inject(Session) readonly session: Session) {}
}

/** Injects call values and evaluation services through its constructor only: built without a call container. */
@Section({ key: 'direct', title: 'Direct' })
class DirectSection {
  constructor(
    @inject(Seen) readonly seen: Seen,
    @inject(ToolContext) readonly context: ToolContext,
    @inject(ToolCallId) readonly callId: string,
    @inject(ToolCallSignal) readonly signal: AbortSignal,
    @inject(Session) readonly session: Session,
    @inject(EvaluationId) readonly evaluationId: string,
    @inject(Clerk) readonly clerk: Clerk,
  ) {}

  @Tool({ name: 'direct', description: 'Report what the section was built with.' })
  direct(_params: undefined, context: ToolContext): ToolResult<null> {
    this.seen.sections.push(this);
    return new ToolResult({ message: `${this.callId}:${String(this.context === context)}` });
  }
}

/** Has a `@postConstruct` hook: only a container runs it, so this one takes the call container. */
@Section({ key: 'hooked', title: 'Hooked' })
class HookedSection {
  started = '';
  constructor(@inject(ToolContext) readonly context: ToolContext) {}

  @postConstruct()
  start(): void {
    this.started = `started for ${this.context.callId}`;
  }

  @Tool({ name: 'hooked', description: 'Report the post-construct hook.' })
  hooked(_params: undefined, _context: ToolContext): ToolResult<null> {
    return new ToolResult({ message: this.started });
  }
}

/** Injects the call's context into a property: only a container fills it. */
@Section({ key: 'property', title: 'Property' })
class PropertySection {
  @inject(ToolCallId) callId!: string;

  @Tool({ name: 'property', description: 'Report the injected property.' })
  property(_params: undefined, _context: ToolContext): ToolResult<null> {
    return new ToolResult({ message: `property ${this.callId}` });
  }
}

const script: ScriptedTurn[] = [
  {
    toolCalls: [
      { callId: 'c1', name: 'direct' },
      { callId: 'c2', name: 'hooked' },
      { callId: 'c3', name: 'property' },
    ],
  },
  { toolCalls: [{ callId: 'c4', name: 'direct' }] },
  { text: 'Done.' },
];

const prompt = new Prompt({
  ns: 'test',
  key: 'direct',
  sections: [DirectSection, HookedSection, PropertySection],
});

function setUp() {
  const seen = new Seen();
  const agent = createTestRuntime({
    script,
    configure: (container) => {
      container.bind(Seen).toConstantValue(seen);
      container.bind(Clerk).toSelf();
    },
  });
  return Object.assign(agent, { seen });
}

describe('section classes that inject call values', () => {
  it('should build a constructor-injected section per call without a call container, with the same values', async () => {
    const { runtime, evaluate, seen } = setUp();
    const session = new Session();

    const response = await evaluate(prompt, { session });

    expect(runtime.directConstruction(DirectSection)).toBeDefined();
    expect(response.toolCalls.map((call) => call.message)).toEqual([
      'c1:true',
      'started for c2',
      'property c3',
      'c4:true',
    ]);
    const sections = seen.sections as DirectSection[];
    expect(sections).toHaveLength(2);
    expect(sections[0]).not.toBe(sections[1]);
    for (const section of sections) {
      expect(section.seen).toBe(seen);
      expect(section.callId).toBe(section.context.callId);
      expect(section.signal).toBe(section.context.signal);
      expect(section.session).toBe(session);
      expect(section.evaluationId).toBe(response.evaluationId);
      expect(section.clerk.session).toBe(session);
    }
    expect(sections[0]?.clerk).not.toBe(sections[1]?.clerk);
  });

  it('should leave hooks and property injection to a call container', async () => {
    const { runtime, evaluate } = setUp();

    await evaluate(prompt);

    expect(runtime.directConstruction(HookedSection)).toBeUndefined();
    expect(runtime.directConstruction(PropertySection)).toBeUndefined();
  });

  it('should use the binding of a section class the application bound itself', async () => {
    const seen = new Seen();
    const built: string[] = [];
    const { runtime, evaluate } = createTestRuntime({
      script,
      configure: (container) => {
        container.bind(Seen).toConstantValue(seen);
        container.bind(Clerk).toSelf();
        container
          .bind(DirectSection)
          .toSelf()
          .onActivation((_context, section) => {
            built.push(section.callId);
            return section;
          });
      },
    });

    await evaluate(prompt);

    expect(runtime.directConstruction(DirectSection)).toBeUndefined();
    expect(built).toEqual(['c1', 'c4']);
  });
});

/** A transient application service that reaches no evaluation or call value. */
@injectable()
class Stamp {
  static made = 0;
  readonly serial = (Stamp.made += 1);
}

/** A singleton application service. */
@injectable()
class Ledger {}

/** Injects application services: two that reach no scoped value, one that reaches the session. */
@Section({ key: 'services', title: 'Services' })
class ServicesSection {
  constructor(
    @inject(Stamp) readonly stamp: Stamp,
    @inject(Ledger) readonly ledger: Ledger,
    @inject(Clerk) readonly clerk: Clerk,
    @inject(Seen) readonly seen: Seen,
  ) {}

  @Tool({ name: 'services', description: 'Report the services the section was built with.' })
  services(_params: undefined, _context: ToolContext): ToolResult<null> {
    this.seen.sections.push(this);
    return new ToolResult({ message: 'ok' });
  }
}

describe('section classes that inject application services', () => {
  it('should resolve services that reach no scoped value in the application container, as the evaluation scope would', async () => {
    const seen = new Seen();
    const activated: number[] = [];
    const { runtime, evaluate } = createTestRuntime({
      script: [{ toolCalls: [{ name: 'services' }, { name: 'services' }] }, { text: 'Done.' }],
      configure: (container) => {
        container.bind(Seen).toConstantValue(seen);
        container.bind(Stamp).toSelf();
        container.onActivation(Stamp, (_context, stamp) => {
          activated.push(stamp.serial);
          return stamp;
        });
        container.bind(Ledger).toSelf().inSingletonScope();
        container.bind(Clerk).toSelf();
      },
    });
    const servicesPrompt = new Prompt({ ns: 'test', key: 'services', sections: [ServicesSection] });
    const session = new Session();

    await evaluate(servicesPrompt, { session });

    expect(
      runtime.directConstruction(ServicesSection)?.arguments.map((argument) => argument.from),
    ).toEqual(['root', 'root', 'evaluation', 'root']);
    const sections = seen.sections as ServicesSection[];
    expect(sections).toHaveLength(2);
    // Transient: one per call, each activated by the application container's hook.
    expect(sections[0]?.stamp).not.toBe(sections[1]?.stamp);
    expect(activated).toEqual(sections.map((section) => section.stamp.serial));
    // Singleton: one for the application.
    expect(sections[0]?.ledger).toBe(sections[1]?.ledger);
    // What reaches the session is still resolved in the evaluation scope, where it is bound.
    expect(sections.map((section) => section.clerk.session)).toEqual([session, session]);
  });
});

/** Injects the provider adapter, which each evaluation binds to its own. */
@Section({ key: 'adapter', title: 'Adapter' })
class AdapterSection {
  constructor(@inject(ProviderAdapter) readonly adapter: ProviderAdapter) {}

  @Tool({ name: 'adapter', description: 'Name the adapter the section was built with.' })
  adapterName(_params: undefined, _context: ToolContext): ToolResult<null> {
    return new ToolResult({ message: this.adapter.name });
  }
}

describe('a section that injects ProviderAdapter', () => {
  it("should get the evaluation's adapter, not one the application bound", async () => {
    // The test runtime binds its own scripted adapter in the application's container.
    const { runtime } = createTestRuntime({ script: [] });
    const adapter = Object.assign(
      new ScriptedAdapter([{ toolCalls: [{ name: 'adapter' }] }, { text: 'Done.' }]),
      { name: 'given' },
    );

    const response = await runtime.evaluate(
      new Prompt({ ns: 'test', key: 'adapter', sections: [AdapterSection] }),
      { adapter },
    );

    expect(response.toolCalls.map((call) => call.message)).toEqual(['given']);
  });
});
