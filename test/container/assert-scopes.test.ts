import {
  Container,
  inject,
  injectable,
  multiInject,
  named,
  optional,
  type ServiceIdentifier,
} from 'inversify';

import { Section } from '../../src/decorators/section.js';
import { assertScopes } from '../../src/runtime/scope/assert-scopes.js';
import { checkScopes, type ScopedServiceIds } from '../../src/runtime/scope/check-scopes.js';
import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { catchError } from '../support/catch-error.js';

interface CallValue {
  readonly callId: string;
}
interface EvaluationValue {
  readonly evaluationId: string;
}

const ToolContext: ServiceIdentifier<CallValue> = Symbol('ToolContext');
const Session: ServiceIdentifier<EvaluationValue> = Symbol('Session');
const scopes: ScopedServiceIds = { evaluation: [Session], call: [ToolContext] };

/** Counts constructor runs, so tests can prove the check instantiates nothing. */
const constructed: string[] = [];

@injectable()
class AuditLog {
  constructor(@inject(ToolContext) readonly context: CallValue) {
    constructed.push('AuditLog');
  }
}

@Section({ key: 'guidance', title: 'Guidance', template: 'Use tools when you need context.' })
class GuidanceSection {
  constructor(@inject(AuditLog) readonly audit: AuditLog) {
    constructed.push('GuidanceSection');
  }
}

@injectable()
class CallFormatter {
  constructor(@inject(ToolContext) readonly context: CallValue) {
    constructed.push('CallFormatter');
  }
}

@injectable()
class FormatterCache {
  constructor(@inject(CallFormatter) readonly formatter: CallFormatter) {
    constructed.push('FormatterCache');
  }
}

@injectable()
class ReportSection {
  constructor(@inject(FormatterCache) readonly cache: FormatterCache) {
    constructed.push('ReportSection');
  }
}

@injectable()
class PropertyAudit {
  @inject(ToolContext) readonly context!: CallValue;
}

@injectable()
class PropertySection {
  constructor(@inject(PropertyAudit) readonly audit: PropertyAudit) {}
}

@injectable()
class SessionStats {
  constructor(@inject(Session) readonly session: EvaluationValue) {}
}

@injectable()
class StatsSection {
  constructor(@inject(SessionStats) readonly stats: SessionStats) {}
}

@injectable()
class Clock {
  constructor() {
    constructed.push('Clock');
  }
}

@injectable()
class ClockSection {
  constructor(
    @inject(Clock) readonly clock: Clock,
    @inject(ToolContext) readonly context: CallValue,
  ) {
    constructed.push('ClockSection');
  }
}

function callContainer(app: Container, callId: string): Container {
  const evaluation = new Container({ parent: app });
  evaluation.bind(Session).toConstantValue({ evaluationId: `evaluation-of-${callId}` });
  const call = new Container({ parent: evaluation });
  call.bind(ToolContext).toConstantValue({ callId });
  return call;
}

beforeEach(() => {
  constructed.length = 0;
});

describe('assertScopes', () => {
  describe('without the check (control)', () => {
    it('should really leak the first call value into a singleton', () => {
      const app = new Container();
      app.bind(AuditLog).toSelf().inSingletonScope();
      app.bind(GuidanceSection).toSelf();

      const first = callContainer(app, 'call-1').get(GuidanceSection);
      const second = callContainer(app, 'call-2').get(GuidanceSection);

      expect(first.audit.context.callId).toBe('call-1');
      expect(second.audit.context.callId).toBe('call-1');
    });
    it('should really keep the first call context in a toFactory binding, even for a transient user', () => {
      const CallIdFactory: ServiceIdentifier<() => string> = Symbol('CallIdFactory');
      @injectable()
      class FactorySection {
        constructor(@inject(CallIdFactory) readonly callId: () => string) {}
      }
      const app = new Container();
      app
        .bind<() => string>(CallIdFactory)
        .toFactory((context) => () => context.get<CallValue>(ToolContext).callId);
      app.bind(FactorySection).toSelf();

      const first = callContainer(app, 'call-1').get(FactorySection);
      const second = callContainer(app, 'call-2').get(FactorySection);

      expect(first.callId()).toBe('call-1');
      expect(second.callId()).toBe('call-1');
    });
  });

  describe('singleton depending on a call-scoped value', () => {
    it('should throw a ConfigurationError naming the singleton, the path and the fix', () => {
      const app = new Container();
      app.bind(AuditLog).toSelf().inSingletonScope();
      app.bind(GuidanceSection).toSelf();

      const error = catchError(ConfigurationError, () => {
        assertScopes(app, [GuidanceSection], scopes);
      });

      expect(error.subject).toBe('AuditLog');
      expect(error.problem).toContain(
        'GuidanceSection → AuditLog (singleton) → ToolContext (call scope)',
      );
      expect(error.problem).toContain('first tool call');
      expect(error.fix).toContain('.inTransientScope()');
      expect(error.fix).toContain('.inRequestScope()');
      expect(error.fix).toContain("tool method's context argument");
    });

    it('should report a section bound as a singleton itself', () => {
      const app = new Container();
      app.bind(AuditLog).toSelf();
      app.bind(GuidanceSection).toSelf().inSingletonScope();

      const problems = checkScopes(app, [GuidanceSection], scopes);

      expect(problems).toHaveLength(1);
      const [leak] = problems;
      expect(leak?.kind).toBe('scope-leak');
      if (leak?.kind !== 'scope-leak') return;
      expect(leak.singleton.serviceId).toBe(GuidanceSection);
      expect(leak.path.map((hop) => hop.serviceId)).toEqual([
        GuidanceSection,
        AuditLog,
        ToolContext,
      ]);
    });

    it('should show every hop when the value is reached through a transient service', () => {
      const app = new Container();
      app.bind(CallFormatter).toSelf();
      app.bind(FormatterCache).toSelf().inSingletonScope();
      app.bind(ReportSection).toSelf();

      const error = catchError(ConfigurationError, () => {
        assertScopes(app, [ReportSection], scopes);
      });

      expect(error.subject).toBe('FormatterCache');
      expect(error.problem).toContain(
        'ReportSection → FormatterCache (singleton) → CallFormatter → ToolContext (call scope)',
      );
    });

    it('should report every singleton on the path', () => {
      const app = new Container();
      app.bind(CallFormatter).toSelf().inSingletonScope();
      app.bind(FormatterCache).toSelf().inSingletonScope();
      app.bind(ReportSection).toSelf();

      const problems = checkScopes(app, [ReportSection], scopes);

      expect(
        problems.map((problem) =>
          problem.kind === 'scope-leak' ? problem.singleton.serviceId : problem.kind,
        ),
      ).toEqual([FormatterCache, CallFormatter]);
    });

    it('should catch property injection and name the property', () => {
      const app = new Container();
      app.bind(PropertyAudit).toSelf().inSingletonScope();
      app.bind(PropertySection).toSelf();

      const error = catchError(ConfigurationError, () => {
        assertScopes(app, [PropertySection], scopes);
      });

      expect(error.subject).toBe('PropertyAudit');
      expect(error.problem).toContain(
        'PropertySection → PropertyAudit (singleton) → ToolContext (call scope, property context)',
      );
    });

    it('should follow .to(Class) and toService redirections', () => {
      const Auditor: ServiceIdentifier<AuditLog> = Symbol('Auditor');
      const CurrentCall: ServiceIdentifier<CallValue> = Symbol('CurrentCall');
      @injectable()
      class RedirectedAudit {
        constructor(@inject(CurrentCall) readonly context: CallValue) {}
      }
      @injectable()
      class AuditingSection {
        constructor(@inject(Auditor) readonly audit: RedirectedAudit) {}
      }
      const app = new Container();
      app.bind(CurrentCall).toService(ToolContext);
      app.bind(Auditor).to(RedirectedAudit).inSingletonScope();
      app.bind(AuditingSection).toSelf();

      const error = catchError(ConfigurationError, () => {
        assertScopes(app, [AuditingSection], scopes);
      });

      expect(error.subject).toBe('Auditor');
      expect(error.problem).toContain(
        'AuditingSection → Auditor (RedirectedAudit, singleton) → CurrentCall → ToolContext (call scope)',
      );
    });

    it('should see singleton toResolvedValue bindings and @multiInject entries', () => {
      const Plugins: ServiceIdentifier<string> = Symbol('Plugins');
      @injectable()
      class PluginSection {
        constructor(@multiInject(Plugins) readonly plugins: string[]) {}
      }
      const app = new Container();
      app.bind(Plugins).toConstantValue('static');
      app
        .bind(Plugins)
        .toResolvedValue((context: CallValue) => `plugin for ${context.callId}`, [ToolContext])
        .inSingletonScope();
      app.bind(PluginSection).toSelf();

      const error = catchError(ConfigurationError, () => {
        assertScopes(app, [PluginSection], scopes);
      });

      expect(error.subject).toBe('Plugins');
      expect(error.problem).toContain(
        'PluginSection → Plugins[1] (singleton) → ToolContext (call scope)',
      );
    });

    it('should check the binding @named selects, not the others', () => {
      @injectable()
      class NamedSection {
        constructor(@inject(AuditLog) @named('safe') readonly audit: AuditLog) {}
      }
      @injectable()
      class SafeAudit {
        readonly context: CallValue = { callId: 'none' };
      }
      const leaking = new Container();
      leaking.bind(AuditLog).toSelf().inSingletonScope().whenNamed('safe');
      leaking.bind(NamedSection).toSelf();
      const safe = new Container();
      safe.bind(AuditLog).toSelf().inSingletonScope().whenNamed('other');
      safe.bind(AuditLog).to(SafeAudit).inSingletonScope().whenNamed('safe');
      safe.bind(NamedSection).toSelf();

      expect(checkScopes(leaking, [NamedSection], scopes).map((problem) => problem.kind)).toEqual([
        'scope-leak',
      ]);
      expect(checkScopes(safe, [NamedSection], scopes)).toEqual([]);
    });

    it('should report a singleton reached from several roots once', () => {
      @injectable()
      class OtherSection {
        constructor(@inject(AuditLog) readonly audit: AuditLog) {}
      }
      const app = new Container();
      app.bind(AuditLog).toSelf().inSingletonScope();
      app.bind(GuidanceSection).toSelf();
      app.bind(OtherSection).toSelf();

      const problems = checkScopes(app, [GuidanceSection, OtherSection], scopes);

      expect(problems).toHaveLength(1);
      expect(problems[0]?.root).toBe(GuidanceSection);
    });
  });

  describe('singleton depending on an evaluation-scoped value', () => {
    it('should throw, saying the first evaluation value would be kept', () => {
      const app = new Container();
      app.bind(SessionStats).toSelf().inSingletonScope();
      app.bind(StatsSection).toSelf();

      const error = catchError(ConfigurationError, () => {
        assertScopes(app, [StatsSection], scopes);
      });

      expect(error.subject).toBe('SessionStats');
      expect(error.problem).toContain(
        'StatsSection → SessionStats (singleton) → Session (evaluation scope)',
      );
      expect(error.problem).toContain('first evaluation');
    });
  });

  describe('safe wiring', () => {
    it('should accept transient and request-scoped services that inject scoped values', () => {
      const app = new Container();
      app.bind(CallFormatter).toSelf().inRequestScope();
      app.bind(FormatterCache).toSelf();
      app.bind(AuditLog).toSelf();
      app.bind(GuidanceSection).toSelf();
      app.bind(ReportSection).toSelf();
      app.bind(SessionStats).toSelf();
      app.bind(StatsSection).toSelf();

      expect(() => {
        assertScopes(app, [GuidanceSection, ReportSection, StatsSection], scopes);
      }).not.toThrow();
      expect(callContainer(app, 'call-1').get(GuidanceSection).audit.context.callId).toBe('call-1');
      expect(callContainer(app, 'call-2').get(GuidanceSection).audit.context.callId).toBe('call-2');
    });

    it('should accept a singleton without scoped dependencies next to a scoped value', () => {
      const app = new Container();
      app.bind(Clock).toSelf().inSingletonScope();
      app.bind(ClockSection).toSelf();

      expect(checkScopes(app, [ClockSection], scopes)).toEqual([]);
    });

    it('should skip an @optional dependency that is not bound', () => {
      @injectable()
      class OptionalSection {
        constructor(@inject('Missing') @optional() readonly missing: unknown) {}
      }
      const app = new Container();
      app.bind(OptionalSection).toSelf();

      expect(checkScopes(app, [OptionalSection], scopes)).toEqual([]);
    });

    it('should see bindings of every ancestor container', () => {
      const base = new Container();
      base.bind(AuditLog).toSelf().inSingletonScope();
      const app = new Container({ parent: base });
      app.bind(GuidanceSection).toSelf();

      expect(checkScopes(app, [GuidanceSection], scopes).map((problem) => problem.kind)).toEqual([
        'scope-leak',
      ]);
    });

    it('should treat toDynamicValue bindings as opaque (a known blind spot)', () => {
      const app = new Container();
      app
        .bind(AuditLog)
        .toDynamicValue((context) => new AuditLog(context.get(ToolContext)))
        .inSingletonScope();
      app.bind(GuidanceSection).toSelf();

      expect(checkScopes(app, [GuidanceSection], scopes)).toEqual([]);
    });
  });

  describe('roots that cannot be planned', () => {
    it('should report an unbound root with the binding to add', () => {
      const app = new Container();

      const error = catchError(ConfigurationError, () => {
        assertScopes(app, [GuidanceSection], scopes);
      });

      expect(error.subject).toBe('GuidanceSection');
      expect(error.problem).toContain('not bound');
      expect(error.fix).toContain('container.bind(GuidanceSection).toSelf()');
    });

    it('should plan an unbound class root as the call scope binds it when asked to', () => {
      const app = new Container();
      app.bind(AuditLog).toSelf().inSingletonScope();

      const problems = checkScopes(app, [GuidanceSection], scopes, { bindUnboundRoots: true });

      expect(problems.map((problem) => problem.kind)).toEqual(['scope-leak']);
      expect(app.isBound(GuidanceSection)).toBe(false);
    });

    it('should plan each unbound root alone, as its call scope binds only it', () => {
      @injectable()
      class NotesSection {}
      @injectable()
      class DeskSection {
        constructor(@inject(NotesSection) readonly notes: NotesSection) {}
      }
      const app = new Container();
      app.bind(AuditLog).toSelf().inSingletonScope();

      const problems = checkScopes(app, [NotesSection, GuidanceSection, DeskSection], scopes, {
        bindUnboundRoots: true,
      });

      expect(problems.map((problem) => [problem.kind, problem.root])).toEqual([
        ['scope-leak', GuidanceSection],
        ['unplannable-root', DeskSection],
      ]);
      expect([NotesSection, GuidanceSection, DeskSection].some((root) => app.isBound(root))).toBe(
        false,
      );
    });

    it('should report a missing dependency with inversify message as the cause', () => {
      const app = new Container();
      app.bind(GuidanceSection).toSelf();

      const error = catchError(ConfigurationError, () => {
        assertScopes(app, [GuidanceSection], scopes);
      });

      expect(error.subject).toBe('GuidanceSection');
      expect(error.problem).toContain('AuditLog');
      expect(error.cause).toBeInstanceOf(Error);
    });

    it('should report a dependency cycle instead of looping', () => {
      const Left: ServiceIdentifier = Symbol('Left');
      const Right: ServiceIdentifier = Symbol('Right');
      @injectable()
      class LeftService {
        constructor(@inject(Right) readonly right: unknown) {}
      }
      @injectable()
      class RightService {
        constructor(@inject(Left) readonly left: unknown) {}
      }
      const app = new Container();
      app.bind(Left).to(LeftService).inSingletonScope();
      app.bind(Right).to(RightService);

      const error = catchError(ConfigurationError, () => {
        assertScopes(app, [Left], scopes);
      });

      expect(error.problem).toContain(
        'Circular dependency found: Symbol(Left) -> Symbol(Right) -> Symbol(Left)',
      );
    });

    it('should list every problem in one error', () => {
      const app = new Container();
      app.bind(AuditLog).toSelf().inSingletonScope();
      app.bind(GuidanceSection).toSelf();

      const error = catchError(ConfigurationError, () => {
        assertScopes(app, [GuidanceSection, ReportSection], scopes);
      });

      expect(error.subject).toBe('Container');
      expect(error.problem).toContain('2 wiring problems');
      expect(error.problem).toContain('1. AuditLog: is a singleton');
      expect(error.problem).toContain('2. ReportSection: is used by a prompt but is not bound');
    });
  });

  describe('side effects', () => {
    it('should run no constructor, factory or activation and fill no singleton cache', () => {
      const activations: string[] = [];
      const factoryCalls: string[] = [];
      const app = new Container();
      app.bind(Clock).toSelf().inSingletonScope();
      app
        .bind(AuditLog)
        .toSelf()
        .inSingletonScope()
        .onActivation((_context, audit) => {
          activations.push('AuditLog');
          return audit;
        });
      app.bind(GuidanceSection).toSelf();
      app.bind(ClockSection).toSelf();
      app.bind(CallFormatter).toSelf();
      app.bind(FormatterCache).toSelf();
      app.bind(ReportSection).toSelf();
      const Greeting: ServiceIdentifier<() => string> = Symbol('Greeting');
      app.bind<() => string>(Greeting).toFactory(() => {
        factoryCalls.push('Greeting');
        return () => 'hello';
      });

      expect(() => {
        assertScopes(app, [GuidanceSection, ClockSection, ReportSection, Greeting], scopes);
      }).toThrow();

      expect(constructed).toEqual([]);
      expect(activations).toEqual([]);
      expect(factoryCalls).toEqual([]);
      // An unfilled singleton cache means the first real resolution builds the singleton.
      app.get(Clock);
      expect(constructed).toEqual(['Clock']);
    });

    it('should leave normal resolution working with each call value, not a placeholder', () => {
      const app = new Container();
      app.bind(Clock).toSelf().inSingletonScope();
      app.bind(ClockSection).toSelf();

      assertScopes(app, [ClockSection], scopes);
      const first = callContainer(app, 'call-1').get(ClockSection);
      const second = callContainer(app, 'call-2').get(ClockSection);

      expect(first.context).toEqual({ callId: 'call-1' });
      expect(second.context).toEqual({ callId: 'call-2' });
      expect(first.clock).toBe(second.clock);
      expect(constructed).toEqual(['Clock', 'ClockSection', 'ClockSection']);
    });

    it('should find a leak in a singleton that was already resolved and cached', () => {
      const app = new Container();
      app.bind(AuditLog).toSelf().inSingletonScope();
      app.bind(GuidanceSection).toSelf();
      callContainer(app, 'call-1').get(GuidanceSection);

      expect(checkScopes(app, [GuidanceSection], scopes).map((problem) => problem.kind)).toEqual([
        'scope-leak',
      ]);
    });

    it('should give the same answer when run twice on the same container', () => {
      const app = new Container();
      app.bind(AuditLog).toSelf().inSingletonScope();
      app.bind(GuidanceSection).toSelf();

      const first = checkScopes(app, [GuidanceSection], scopes);
      const second = checkScopes(app, [GuidanceSection], scopes);

      expect(second).toEqual(first);
      expect(second).toHaveLength(1);
    });
  });
});
