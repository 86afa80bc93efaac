import { Injectable, Module } from '@nestjs/common';
import { IsString } from 'class-validator';
import { inject, injectable } from 'inversify';

import {
  ConfigurationError,
  Prompt,
  ProviderAdapter,
  Section,
  Session,
  Tool,
  type ToolContext,
  ToolResult,
  PromptExecuted,
} from 'affordance';
import { AffordanceModule, AffordanceService } from 'affordance/nest';
import {
  type FallbackEvent,
  FallbackAdapter,
  providerCapabilities,
  type ProviderTurn,
} from 'affordance/provider';
import { ScriptedAdapter } from 'affordance/testing';

import { catchError } from '../support/catch-error.js';
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
  key: 'fallback',
  sections: [GreetingSection],
});

/** How the primary provider fails: bound in the affordance container by `configure`. */
class Outage {
  calls = 0;
}

/** A primary provider class built by the affordance container: always overloaded. */
@injectable()
class OverloadedAdapter extends ProviderAdapter {
  override readonly name: string = 'primary';
  override readonly model: string = 'primary-model';
  override readonly capabilities = providerCapabilities();

  constructor(@inject(Outage) private readonly outage: Outage) {
    super();
  }

  override request(): Promise<ProviderTurn> {
    this.outage.calls += 1;
    return Promise.reject(Object.assign(new Error('overloaded'), { status: 529 }));
  }
}

class BackupAdapter extends ScriptedAdapter {
  override readonly name: string = 'backup';
}

describe('AffordanceModule with a list of adapters', () => {
  it('serves evaluations through a FallbackAdapter over the list, with the fallback options', async () => {
    const outage = new Outage();
    const events: FallbackEvent[] = [];
    const backup = new BackupAdapter([
      { toolCalls: [{ name: 'greet', arguments: { name: 'Ada' } }] },
      { text: 'Greeted Ada.' },
      { text: 'Still here.' },
    ]);
    @Module({
      imports: [
        AffordanceModule.forRoot({
          adapter: [OverloadedAdapter, () => backup],
          fallback: {
            circuitBreaker: { failureThreshold: 1, coolDownMs: 60_000 },
            onEvent: (event) => events.push(event),
          },
          configure: (container) => {
            container.bind(Outage).toConstantValue(outage);
          },
        }),
      ],
      providers: [Greeter, GreetingSection],
    })
    class FallbackModule {}
    const app = await createContext(FallbackModule);
    const service = app.get(AffordanceService);
    const session = new Session();

    const first = await service.evaluate(greetingPrompt, { session });
    const second = await service.evaluate(greetingPrompt, { session });

    expect([first.text, second.text]).toEqual(['Greeted Ada.', 'Still here.']);
    expect(app.get(ProviderAdapter)).toBeInstanceOf(FallbackAdapter);
    // One failure opened the primary's circuit: the later turns went straight to the backup.
    expect(outage.calls).toBe(1);
    expect(events.map((event) => event.type)).toEqual(['circuit', 'fallback']);
    expect(
      session.view
        .slice(PromptExecuted)
        .all()
        .map((event) => [event.adapter, event.provider]),
    ).toEqual([
      ['fallback', 'backup'],
      ['fallback', 'backup'],
    ]);
    await app.close();
  });

  it('refuses an empty list when the module is declared', () => {
    const error = catchError(ConfigurationError, () => AffordanceModule.forRoot({ adapter: [] }));
    expect(error.message).toContain('options.adapter is an empty list');
    expect(error.message).toContain('Fix:');
  });
});
