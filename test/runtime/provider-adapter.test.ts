import { Container } from 'inversify';

import {
  ConfigurationError,
  installAffordance,
  MarkdownSection,
  NativeTool,
  Prompt,
  PromptValidationError,
  ProviderAdapter,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import {
  PROVIDER_SEAM_VERSION,
  providerCapabilities,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderTurn,
} from 'affordance/provider';
import { createTestRuntime, ScriptedAdapter } from 'affordance/testing';

import { catchError, catchRejection } from '../support/catch-error.js';

const echo = new ToolDefinition({
  name: 'echo',
  description: 'Echo nothing.',
  handler: () => new ToolResult({ message: 'echo' }),
});

function promptWith(...tools: ToolDefinition[]): Prompt {
  return new Prompt({
    ns: 'test',
    key: 'adapter',
    sections: [new MarkdownSection({ key: 'tools', title: 'Tools', template: 'Use them.', tools })],
  });
}

/** A minimal adapter built on the base class only; its capabilities are given per test. */
class PlainAdapter extends ProviderAdapter {
  override readonly name: string = 'plain';
  override readonly capabilities: ProviderCapabilities = providerCapabilities();

  override request(_request: ProviderRequest): Promise<ProviderTurn> {
    return Promise.resolve({ text: 'plain answer', toolCalls: [] });
  }
}

class StrictAdapter extends PlainAdapter {
  override readonly capabilities = { ...new PlainAdapter().capabilities, strictTools: true };
}

class NativeCapableAdapter extends PlainAdapter {
  override readonly capabilities = { ...new PlainAdapter().capabilities, nativeTools: true };
}

describe(ProviderAdapter, () => {
  describe('constructor', () => {
    it('should build a subclass with no arguments (an adapter holds no runtime)', () => {
      const adapter = new PlainAdapter();

      expect(adapter).toBeInstanceOf(ProviderAdapter);
      expect(adapter.name).toBe('plain');
      expect(adapter.capabilities.seamVersion).toBe(PROVIDER_SEAM_VERSION);
    });
  });

  describe('.validate', () => {
    it('should accept function tools', () => {
      const { adapter } = createTestRuntime();

      expect(() => {
        adapter.validate(promptWith(echo).render().tools);
      }).not.toThrow();
    });

    it('should reject a provider-executed tool, naming the adapter and the tool', () => {
      const { adapter } = createTestRuntime();
      const rendered = promptWith(echo, new NativeTool({ type: 'code_interpreter' })).render();

      const error = catchError(PromptValidationError, () => {
        adapter.validate(rendered.tools);
      });

      expect(error.message).toContain(
        "Adapter 'scripted' cannot offer the provider-executed tool 'code_interpreter'.",
      );
    });

    it('should accept a provider-executed tool when capabilities.nativeTools is on', () => {
      const rendered = promptWith(echo, new NativeTool({ type: 'code_interpreter' })).render();

      expect(() => {
        new NativeCapableAdapter().validate(rendered.tools);
      }).not.toThrow();
    });
  });

  describe('.toolSpec', () => {
    it('should offer the standard (non-strict) schema when capabilities.strictTools is off', () => {
      const spec = new ScriptedAdapter([]).toolSpec(echo);

      expect(spec).toMatchObject({
        tool: echo,
        name: 'echo',
        description: 'Echo nothing.',
        strict: false,
      });
    });

    it('should offer a strict schema when capabilities.strictTools is on', () => {
      const spec = new StrictAdapter().toolSpec(echo);

      expect(spec).toMatchObject({ tool: echo, name: 'echo', strict: true });
    });
  });

  describe('with runtime.evaluate', () => {
    it('should run the shared loop with the adapter passed in the options', async () => {
      const agent = createTestRuntime({ script: [{ text: 'Hello.' }] });

      const response = await agent.evaluate(promptWith(echo));

      expect(response).toMatchObject({ promptName: 'adapter', text: 'Hello.', turns: 1 });
    });

    it('should use the adapter bound to ProviderAdapter when none is passed', async () => {
      const container = new Container();
      const runtime = installAffordance(container);
      container.bind(ProviderAdapter).toConstantValue(new PlainAdapter());

      const response = await runtime.evaluate(promptWith(echo));

      expect(response).toMatchObject({ promptName: 'adapter', text: 'plain answer', turns: 1 });
    });

    it('should refuse to run when no adapter is passed or bound', async () => {
      const runtime = installAffordance(new Container());

      const error = await catchRejection(ConfigurationError, () =>
        runtime.evaluate(promptWith(echo)),
      );

      expect(error.subject).toBe("Evaluation of prompt 'test/adapter'");
      expect(error.problem).toContain('has no provider adapter');
    });

    it('should refuse an adapter that declares no capabilities.seamVersion', async () => {
      const runtime = installAffordance(new Container());
      const legacy = {
        name: 'legacy',
        capabilities: { strictTools: false },
        request: () => Promise.resolve({ text: 'never', toolCalls: [] }),
      } as unknown as ProviderAdapter;

      const error = await catchRejection(ConfigurationError, () =>
        runtime.evaluate(promptWith(echo), { adapter: legacy }),
      );

      expect(error.problem).toContain('declares no capabilities.seamVersion');
    });

    it('should refuse an adapter that has no capabilities at all', async () => {
      const runtime = installAffordance(new Container());
      const legacy = {
        name: 'legacy',
        request: () => Promise.resolve({ text: 'never', toolCalls: [] }),
      } as unknown as ProviderAdapter;

      const error = await catchRejection(ConfigurationError, () =>
        runtime.evaluate(promptWith(echo), { adapter: legacy }),
      );

      expect(error.problem).toContain('declares no capabilities.seamVersion');
    });

    it('should refuse an adapter written for another seam version, naming both versions', async () => {
      class FutureAdapter extends PlainAdapter {
        override readonly capabilities = {
          ...new PlainAdapter().capabilities,
          seamVersion: (PROVIDER_SEAM_VERSION + 1) as typeof PROVIDER_SEAM_VERSION,
        };
      }
      const runtime = installAffordance(new Container());
      const adapter = new FutureAdapter();

      const error = await catchRejection(ConfigurationError, () =>
        runtime.evaluate(promptWith(echo), { adapter }),
      );

      expect(error.subject).toBe('Provider adapter FutureAdapter');
      expect(error.problem).toBe(
        `implements provider seam version ${PROVIDER_SEAM_VERSION + 1}; this runtime speaks version ${PROVIDER_SEAM_VERSION}.`,
      );
    });

    it('should refuse a wrong seam version bound in the container too', async () => {
      class OldAdapter extends PlainAdapter {
        override readonly capabilities = {
          ...new PlainAdapter().capabilities,
          seamVersion: 0 as typeof PROVIDER_SEAM_VERSION,
        };
      }
      const container = new Container();
      const runtime = installAffordance(container);
      container.bind(ProviderAdapter).toConstantValue(new OldAdapter());

      const error = await catchRejection(ConfigurationError, () =>
        runtime.evaluate(promptWith(echo)),
      );

      expect(error.subject).toBe('Provider adapter OldAdapter');
    });
  });
});
