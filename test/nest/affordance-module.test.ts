import { Injectable, Module } from '@nestjs/common';
import { IsString } from 'class-validator';
import { inject, injectable } from 'inversify';

import {
  AffordanceRuntime,
  ConfigurationError,
  Prompt,
  ProviderAdapter,
  Section,
  Session,
  Tool,
  type ToolContext,
  ToolResult,
} from 'affordance';
import { AffordanceModule, AffordanceService } from 'affordance/nest';
import { Plan, PlanningToolsSection } from 'affordance/planning';
import { providerCapabilities, type ProviderTurn } from 'affordance/provider';
import { ScriptedAdapter } from 'affordance/testing';

import { catchError, catchRejection } from '../support/catch-error.js';
import { createContext } from '../support/nest-http.js';

@Injectable()
class Greeter {
  greet(name: string): string {
    return `Hello, ${name}.`;
  }
}

class GreetParams {
  @IsString() name!: string;
}

@Section({ key: 'greeting', title: 'Greeting', template: 'Greet people by name.' })
class GreetingSection {
  constructor(private readonly greeter: Greeter) {}

  @Tool({ name: 'greet', description: 'Greet someone.' })
  greet(params: GreetParams, _context: ToolContext): ToolResult<string> {
    return ToolResult.ok(this.greeter.greet(params.name));
  }
}

const greetingPrompt = new Prompt({
  ns: 'test/nest',
  key: 'greeting',
  sections: [GreetingSection],
});

/** The answer a canned adapter gives; bound in the affordance container by `configure`. */
class CannedAnswer {
  constructor(readonly text: string) {}
}

/** An adapter class built by the affordance container, with its own injected dependency. */
@injectable()
class CannedAdapter extends ProviderAdapter {
  override readonly name: string = 'canned';
  override readonly capabilities = providerCapabilities();

  constructor(@inject(CannedAnswer) private readonly answer: CannedAnswer) {
    super();
  }

  override request(): Promise<ProviderTurn> {
    return Promise.resolve({ text: this.answer.text });
  }
}

/** A configuration service of the application, as `forRootAsync` factories inject them. */
@Injectable()
class Settings {
  readonly maxTurns = 3;
}

@Module({ providers: [Settings], exports: [Settings] })
class SettingsModule {}

describe(AffordanceModule, () => {
  describe('.forRoot', () => {
    it('should build an adapter class in the affordance container and export it to Nest', async () => {
      @Module({
        imports: [
          AffordanceModule.forRoot({
            adapter: CannedAdapter,
            configure: (container) => {
              container.bind(CannedAnswer).toConstantValue(new CannedAnswer('canned answer'));
            },
          }),
        ],
        providers: [Greeter, GreetingSection],
      })
      class CannedModule {}
      const app = await createContext(CannedModule);

      const response = await app.get(AffordanceService).evaluate(greetingPrompt);

      expect(response.text).toBe('canned answer');
      expect(app.get(ProviderAdapter)).toBeInstanceOf(CannedAdapter);
      expect(app.get(AffordanceRuntime).container.get(ProviderAdapter)).toBe(
        app.get(ProviderAdapter),
      );
      expect(app.get(AffordanceService).adapter).toBe(app.get(ProviderAdapter));
      await app.close();
    });

    it('should call an adapter factory with the runtime Nest exports', async () => {
      let given: AffordanceRuntime | undefined;
      @Module({
        imports: [
          AffordanceModule.forRoot({
            adapter: (runtime) => {
              given = runtime;
              return new ScriptedAdapter([
                { toolCalls: [{ name: 'greet', arguments: { name: 'Ada' } }] },
                { text: 'greeted' },
              ]);
            },
            runtime: { maxTurns: 5 },
          }),
        ],
        providers: [Greeter, GreetingSection],
      })
      class FactoryModule {}
      const app = await createContext(FactoryModule);

      const response = await app.get(AffordanceService).evaluate(greetingPrompt);

      expect(given).toBe(app.get(AffordanceRuntime));
      expect(given?.maxTurns).toBe(5);
      expect(response.toolCalls[0]?.result.value).toBe('Hello, Ada.');
      await app.close();
    });

    it('should make AffordanceService injectable in modules that do not import it', async () => {
      @Injectable()
      class Consumer {
        constructor(readonly affordance: AffordanceService) {}
      }
      @Module({ providers: [Consumer] })
      class FeatureModule {}
      @Module({
        imports: [
          AffordanceModule.forRoot({ adapter: () => new ScriptedAdapter([]) }),
          FeatureModule,
        ],
      })
      class GlobalModule {}
      const app = await createContext(GlobalModule);

      expect(app.get(Consumer).affordance).toBe(app.get(AffordanceService));
      await app.close();
    });

    it('should reject an adapter option that is neither a class nor a factory', () => {
      const error = catchError(ConfigurationError, () =>
        AffordanceModule.forRoot({ adapter: 'openai' as never }),
      );

      expect(error.subject).toBe('AffordanceModule.forRoot');
      expect(error.problem).toBe(
        'options.adapter must be a ProviderAdapter subclass or a factory, got string.',
      );
    });

    it('should reject a factory that returns something other than an adapter', async () => {
      @Module({ imports: [AffordanceModule.forRoot({ adapter: () => ({}) as never })] })
      class BrokenModule {}

      const error = await catchRejection(ConfigurationError, () => createContext(BrokenModule));

      expect(error.subject).toBe('AffordanceModule adapter factory');
      expect(error.problem).toBe('returned an instance of Object, not a ProviderAdapter.');
    });

    it('should run sections no Nest module provides in the affordance container, beside Nest ones', async () => {
      @Module({
        imports: [
          AffordanceModule.forRoot({
            adapter: () =>
              new ScriptedAdapter([
                {
                  toolCalls: [
                    { name: 'planning_setup_plan', arguments: { objective: 'Greet Ada' } },
                    { name: 'greet', arguments: { name: 'Ada' } },
                  ],
                },
                { text: 'done' },
              ]),
          }),
        ],
        providers: [Greeter, GreetingSection],
      })
      class MixedModule {}
      const app = await createContext(MixedModule);
      const session = new Session();

      const response = await app.get(AffordanceService).evaluate(
        new Prompt({
          ns: 'test/nest',
          key: 'mixed',
          sections: [PlanningToolsSection, GreetingSection],
        }),
        { session },
      );

      expect(response.toolCalls.map((call) => call.result.success)).toEqual([true, true]);
      expect(session.slice(Plan).latest()?.objective).toBe('Greet Ada');
      await app.close();
    });

    describe('prompts', () => {
      @Section({ key: 'unlisted', title: 'Unlisted', template: 'Not a provider.' })
      class UnlistedSection {
        constructor(private readonly greeter: Greeter) {}

        @Tool({ name: 'greet_unlisted', description: 'Greet someone.' })
        greet(params: GreetParams, _context: ToolContext): ToolResult<string> {
          return ToolResult.ok(this.greeter.greet(params.name));
        }
      }
      const unlistedPrompt = new Prompt({
        ns: 'test/nest',
        key: 'unlisted',
        sections: [GreetingSection, UnlistedSection],
      });

      it('should fail at startup when a section of a listed prompt is not a Nest provider', async () => {
        @Module({
          imports: [
            AffordanceModule.forRoot({
              adapter: () => new ScriptedAdapter([]),
              prompts: [unlistedPrompt],
            }),
          ],
          providers: [Greeter, GreetingSection],
        })
        class StartupModule {}

        const error = await catchRejection(ConfigurationError, () => createContext(StartupModule));

        expect(error.subject).toBe('UnlistedSection');
        expect(error.problem).toContain(
          "is a section of prompt 'test/nest/unlisted' that no Nest module provides, so affordance tried to build it itself and could not",
        );
        expect(error.problem).toContain(
          '(UnlistedSection injects Greeter, which is not bound in the container, so it cannot be built.)',
        );
        expect(error.fix).toContain(
          'Add UnlistedSection to the providers of a Nest module, e.g. @Module({ providers: [UnlistedSection] })',
        );
        expect(ConfigurationError.is(error.cause)).toBe(true);
      });

      it('should report the same problem at the first evaluation of a prompt not listed', async () => {
        @Module({
          imports: [AffordanceModule.forRoot({ adapter: () => new ScriptedAdapter([]) })],
          providers: [Greeter, GreetingSection],
        })
        class LateModule {}
        const app = await createContext(LateModule);

        const error = await catchRejection(ConfigurationError, () =>
          app.get(AffordanceService).evaluate(unlistedPrompt),
        );

        expect(error.subject).toBe('UnlistedSection');
        await app.close();
      });

      it('should leave a scope leak in a section affordance builds to the runtime to report', async () => {
        /** An affordance singleton that keeps the first evaluation's session: a leak. */
        @injectable()
        class SessionKeeper {
          constructor(@inject(Session) readonly session: Session) {}
        }
        @Section({ key: 'keeper', title: 'Keeper', template: 'Keeps a session.' })
        class KeeperSection {
          constructor(@inject(SessionKeeper) readonly keeper: SessionKeeper) {}
        }
        @Module({
          imports: [
            AffordanceModule.forRoot({
              adapter: () => new ScriptedAdapter([]),
              configure: (container) => {
                container.bind(SessionKeeper).toSelf().inSingletonScope();
              },
              prompts: [new Prompt({ ns: 'test/nest', key: 'keeper', sections: [KeeperSection] })],
            }),
          ],
        })
        class LeakModule {}

        const error = await catchRejection(ConfigurationError, () => createContext(LeakModule));

        expect(error.subject).toBe('SessionKeeper');
        expect(error.problem).toContain('is a singleton but depends on Session');
      });

      it('should start when every listed prompt can be resolved', async () => {
        @Module({
          imports: [
            AffordanceModule.forRoot({
              adapter: () => new ScriptedAdapter([]),
              prompts: [unlistedPrompt],
            }),
          ],
          providers: [Greeter, GreetingSection, UnlistedSection],
        })
        class CompleteModule {}

        const app = await createContext(CompleteModule);

        expect(() => {
          app.get(AffordanceService).prepare(unlistedPrompt);
        }).not.toThrow();
        await app.close();
      });
    });
  });

  describe('.forRootAsync', () => {
    it('should build the options from providers of the imported modules', async () => {
      @Module({
        imports: [
          AffordanceModule.forRootAsync({
            imports: [SettingsModule],
            inject: [Settings],
            useFactory: (settings: Settings) => ({
              adapter: () => new ScriptedAdapter([]),
              runtime: { maxTurns: settings.maxTurns },
            }),
          }),
        ],
      })
      class AsyncModule {}
      const app = await createContext(AsyncModule);

      expect(app.get(AffordanceRuntime).maxTurns).toBe(3);
      await app.close();
    });

    it('should reject options whose adapter is missing', async () => {
      @Module({
        imports: [
          AffordanceModule.forRootAsync({ useFactory: () => Promise.resolve({} as never) }),
        ],
      })
      class MissingModule {}

      const error = await catchRejection(ConfigurationError, () => createContext(MissingModule));

      expect(error.subject).toBe('AffordanceModule.forRootAsync');
      expect(error.problem).toContain('got undefined');
    });
  });
});
