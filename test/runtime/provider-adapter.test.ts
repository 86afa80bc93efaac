import {
  MarkdownSection,
  NativeTool,
  Prompt,
  PromptValidationError,
  ProviderAdapter,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import { createTestRuntime } from 'affordance/testing';

import { catchError } from '../support/catch-error.js';

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

describe(ProviderAdapter, () => {
  describe('.validate', () => {
    it('should accept function tools', () => {
      const { adapter } = createTestRuntime();

      expect(() => {
        adapter.validate(promptWith(echo).render());
      }).not.toThrow();
    });

    it('should reject a provider-executed tool, naming the adapter and the tool', () => {
      const { adapter } = createTestRuntime();
      const rendered = promptWith(echo, new NativeTool({ type: 'code_interpreter' })).render();

      const error = catchError(PromptValidationError, () => {
        adapter.validate(rendered);
      });

      expect(error.message).toContain(
        "Adapter 'scripted' cannot offer the provider-executed tool 'code_interpreter'.",
      );
    });
  });

  describe('.argumentsProfile', () => {
    it('should show the model the standard schema by default', () => {
      const { adapter } = createTestRuntime();

      expect(adapter.argumentsProfile(echo)).toBe('standard');
    });
  });

  describe('.evaluate', () => {
    it("should run the shared loop of the adapter's runtime", async () => {
      const { adapter } = createTestRuntime({ script: [{ text: 'Hello.' }] });

      const response = await adapter.evaluate(promptWith(echo));

      expect(response).toMatchObject({ promptName: 'adapter', text: 'Hello.', turns: 1 });
    });
  });
});
