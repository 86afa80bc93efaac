import { Body, Controller, Injectable, Module, Post } from '@nestjs/common';
import { IsString } from 'class-validator';
import { Container, injectable } from 'inversify';

import {
  ConfigurationError,
  installAffordance,
  Prompt,
  ProviderAdapter,
  Section,
  Tool,
  type ToolContext,
  ToolResult,
} from 'affordance';
import { AffordanceModule, AffordanceService } from 'affordance/nest';
import { OpenAIAdapter, OpenAIAdapterOptions } from 'affordance/openai';
import { providerCapabilities } from 'affordance/provider';
import { ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

import { catchError, catchRejection } from '../support/catch-error.js';
import { createContext, listen, postJson } from '../support/nest-http.js';

@Injectable()
class Counter {
  count = 0;
}

class CountParams {
  @IsString() label!: string;
}

@Section({ key: 'counting', title: 'Counting', template: 'Count what you are asked to.' })
class CountingSection {
  constructor(private readonly counter: Counter) {}

  @Tool({ name: 'count', description: 'Count one more item.' })
  count(params: CountParams, _context: ToolContext): ToolResult<string> {
    this.counter.count += 1;
    return ToolResult.ok(`${params.label} #${this.counter.count}`);
  }
}

const countingPrompt = new Prompt({
  ns: 'hardening',
  key: 'counting',
  sections: [CountingSection],
});

class AskDto {
  @IsString() label!: string;
}

@Controller()
class CountController {
  constructor(private readonly affordance: AffordanceService) {}

  @Post('count')
  async count(@Body() body: AskDto): Promise<{ answer: string | null }> {
    const response = await this.affordance.evaluate(countingPrompt, { input: body.label });
    return { answer: response.text };
  }
}

/**
 * `CountController` that also checks, after each evaluation, that the module's
 * scripted adapter has used up its script (the check ScriptedAdapter no longer
 * makes by itself when an evaluation ends).
 */
@Controller()
class CheckedCountController {
  constructor(
    private readonly affordance: AffordanceService,
    private readonly adapter: ProviderAdapter,
  ) {}

  @Post('count')
  async count(@Body() body: AskDto): Promise<{ answer: string | null }> {
    const response = await this.affordance.evaluate(countingPrompt, { input: body.label });
    if (!(this.adapter instanceof ScriptedAdapter)) throw new Error('not the scripted adapter');
    this.adapter.assertDone();
    return { answer: response.text };
  }
}

/** The script of one request: call `count` with the request's label, then answer. */
function scriptFor(label: string): ScriptedTurn[] {
  return [{ toolCalls: [{ name: 'count', arguments: { label } }] }, { text: `counted ${label}` }];
}

describe('Wiring mistakes name their fix instead of surfacing a bare inversify error', () => {
  it('an adapter resolves from a container without installAffordance: adapters hold no runtime', () => {
    const container = new Container();
    container
      .bind(OpenAIAdapterOptions)
      .toConstantValue({ model: 'gpt-5-mini', client: { apiKey: 'k' } });
    container.bind(ProviderAdapter).to(OpenAIAdapter).inSingletonScope();

    expect(container.get(ProviderAdapter)).toBeInstanceOf(OpenAIAdapter);
  });

  it('a runtime with no adapter passed or bound says to bind one', async () => {
    const runtime = installAffordance(new Container());

    const error = await catchRejection(ConfigurationError, () => runtime.evaluate(countingPrompt));

    expect(error.subject).toBe("Evaluation of prompt 'hardening/counting'");
    expect(error.fix).toMatch(/container\.bind\(ProviderAdapter\)/);
    expect(error.message).not.toMatch(/No bindings found/);
  });

  it('once installAffordance is called, the same wiring works', () => {
    const container = new Container();
    installAffordance(container);
    container
      .bind(OpenAIAdapterOptions)
      .toConstantValue({ model: 'gpt-5-mini', client: { apiKey: 'k' } });
    container.bind(ProviderAdapter).to(OpenAIAdapter).inSingletonScope();
    expect(container.get(ProviderAdapter)).toBeInstanceOf(OpenAIAdapter);
  });

  it('AffordanceModule given the ScriptedAdapter class says to pass a factory', () => {
    const error = catchError(ConfigurationError, () =>
      AffordanceModule.forRoot({ adapter: ScriptedAdapter }),
    );
    expect(error.message).toBe(
      'AffordanceModule.forRoot: options.adapter is the ScriptedAdapter class, which the container cannot build: ' +
        'its constructor takes arguments and the class is not @injectable(). ' +
        'Fix: Pass a factory: adapter: () => new ScriptedAdapter(script); ' +
        "add adapterScope: 'evaluation' to get a fresh script for every request.",
    );
  });

  it('AffordanceModule given an adapter class the container cannot build says why and what to pass instead', async () => {
    // @injectable() lets the class past forRoot's check: the container only fails to build it at startup.
    @injectable()
    class NeedsScript extends ProviderAdapter {
      override readonly name: string = 'needs-script';
      override readonly capabilities = providerCapabilities();
      constructor(readonly turns: readonly ScriptedTurn[]) {
        super();
      }
      override request(): never {
        throw new Error('unused');
      }
    }
    @Module({
      imports: [AffordanceModule.forRoot({ adapter: NeedsScript })],
      providers: [Counter, CountingSection],
    })
    class BrokenModule {}

    const error = await createContext(BrokenModule).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );

    expect(ConfigurationError.is(error)).toBe(true);
    const { subject, fix } = error as ConfigurationError;
    expect(subject).toBe('AffordanceModule adapter NeedsScript');
    expect(fix).toMatch(
      /^Pass a factory that builds it instead, e\.g\. adapter: \(\) => new NeedsScript\(\.\.\.\)/,
    );
  });

  it('AffordanceModule refuses an adapterScope it does not know', () => {
    const error = catchError(ConfigurationError, () =>
      AffordanceModule.forRoot({
        adapter: () => new ScriptedAdapter([]),
        adapterScope: 'request' as never,
      }),
    );
    expect(error.message).toMatch(/adapterScope must be 'singleton' or 'evaluation', got string/);
  });
});

describe("AffordanceModule with adapterScope: 'evaluation' gives every request its own scripted model", () => {
  it('serves several HTTP requests in a row, each with a fresh script that must be used up', async () => {
    const built: ScriptedAdapter[] = [];
    const labels = ['apples', 'pears', 'plums'];
    @Module({
      imports: [
        AffordanceModule.forRoot({
          adapter: () => {
            const adapter = new ScriptedAdapter(scriptFor(labels[built.length] ?? 'extra'));
            built.push(adapter);
            return adapter;
          },
          adapterScope: 'evaluation',
          prompts: [countingPrompt],
        }),
      ],
      controllers: [CountController],
      providers: [Counter, CountingSection],
    })
    class CountingApp {}
    const { app, url } = await listen(CountingApp);
    try {
      const answers: unknown[] = [];
      for (const label of labels) {
        const reply = await postJson(`${url}/count`, { label });
        expect(reply.status).toBe(201);
        answers.push(reply.body);
      }

      expect(answers).toEqual([
        { answer: 'counted apples' },
        { answer: 'counted pears' },
        { answer: 'counted plums' },
      ]);
      expect(built).toHaveLength(3);
      expect(built.map((adapter) => [adapter.remaining, adapter.requests.length])).toEqual([
        [0, 2],
        [0, 2],
        [0, 2],
      ]);
      // The tool's result in the second request is the second count: one Counter for the app.
      const toolMessage = built[1]?.requests[1]?.messages.find(
        (message) => message.role === 'tool',
      );
      expect(toolMessage?.role === 'tool' ? toolMessage.content : '').toContain('pears #2');
      expect(app.get(ProviderAdapter)).toBe(app.get(AffordanceService).adapter);
    } finally {
      await app.close();
    }
  });

  it('a single scripted adapter (the default scope) cannot serve the same requests: its script is shared', async () => {
    @Module({
      imports: [
        AffordanceModule.forRoot({
          adapter: () => new ScriptedAdapter([...scriptFor('apples'), ...scriptFor('pears')]),
        }),
      ],
      controllers: [CheckedCountController],
      providers: [Counter, CountingSection],
    })
    class SharedScriptApp {}
    const { app, url } = await listen(SharedScriptApp);
    try {
      const reply = await postJson(`${url}/count`, { label: 'apples' });
      // The first evaluation ends with the second request's turns left over.
      expect(reply.status).toBe(500);
    } finally {
      await app.close();
    }
  });
});
