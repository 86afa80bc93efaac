import { PromptValidationError } from '../../src/core/errors/prompt-validation-error.js';
import { NativeTool, type NativeToolType } from '../../src/tools/native-tool.js';
import { ToolDefinition } from '../../src/tools/tool-definition.js';
import { ToolExample } from '../../src/tools/tool-example.js';
import { ToolResult } from '../../src/tools/tool-result.js';
import { catchError } from '../support/catch-error.js';

class WebSearchCall {
  query = '';
}

const types: NativeToolType[] = [
  'web_search',
  'file_search',
  'code_interpreter',
  'shell',
  'apply_patch',
];

describe('NativeTool', () => {
  describe('when built with only a type', () => {
    it.each(types)('should name the %s tool after its type and describe it', (type) => {
      const tool = new NativeTool({ type });
      expect(tool.type).toBe(type);
      expect(tool.name).toBe(type);
      expect(tool.description.length).toBeGreaterThan(0);
      expect(tool.description).toBe(tool.description.trim());
    });

    it('should be a native ToolDefinition without a handler that refuses overrides', () => {
      const tool = new NativeTool({ type: 'web_search' });
      expect(tool).toBeInstanceOf(ToolDefinition);
      expect(tool.native).toBe(true);
      expect(tool.handler).toBeUndefined();
      expect(tool.acceptsOverrides).toBe(false);
      expect(tool.readOnly).toBe(false);
      expect(tool.config).toEqual({});
      expect(Object.isFrozen(tool.config)).toBe(true);
    });
  });

  describe('when given options', () => {
    it('should keep its name, description, params class and overrides flag', () => {
      const tool = new NativeTool({
        type: 'web_search',
        name: 'search_web',
        description: '  Search the public web. ',
        params: WebSearchCall,
        acceptsOverrides: true,
      });
      expect(tool.name).toBe('search_web');
      expect(tool.description).toBe('Search the public web.');
      expect(tool.paramsType).toBe(WebSearchCall);
      expect(tool.acceptsOverrides).toBe(true);
    });

    it('should freeze a copy of its config', () => {
      const config: Record<string, unknown> = { search_context_size: 'low' };
      const tool = new NativeTool({ type: 'web_search', config });
      config['search_context_size'] = 'high';
      expect(tool.config).toEqual({ search_context_size: 'low' });
      expect(Object.isFrozen(tool.config)).toBe(true);
    });

    it('should validate its name and examples like any tool', () => {
      const badName = catchError(
        PromptValidationError,
        () => new NativeTool({ type: 'web_search', name: 'Web Search' }),
      );
      expect(badName.message).toContain('(pattern: ^[a-z0-9_-]{1,64}$)');
      const badExample = catchError(
        PromptValidationError,
        () =>
          new NativeTool({
            type: 'web_search',
            params: WebSearchCall,
            examples: [new ToolExample({ description: 'Search.', input: { query: 'x' } })],
          }),
      );
      expect(badExample.message).toContain('Tool example input must match the tool params type');
    });
  });

  describe('when given a handler', () => {
    it('should reject it: the provider executes the tool', () => {
      const init = {
        type: 'web_search' as const,
        params: WebSearchCall,
        handler: () => ToolResult.ok(null),
      };
      const error = catchError(PromptValidationError, () => new NativeTool(init));
      expect(error.message).toContain(
        'NativeTool must not set a handler; execution is provider-managed.',
      );
      expect(error.message).toContain("'web_search'");
      expect(error.placeholder).toBe('web_search');
      expect(error.paramsType).toBe(WebSearchCall);
    });
  });

  it('should describe image_generation and mcp tools by default', () => {
    expect(new NativeTool({ type: 'image_generation' }).description).toContain('images');
    expect(new NativeTool({ type: 'mcp', config: { server_label: 'docs' } }).description).toContain(
      'MCP',
    );
  });

  describe('when the type has no default description', () => {
    it('should ask for a description instead of failing on a missing one', () => {
      const type = 'computer_use_preview' as NativeToolType;
      const error = catchError(PromptValidationError, () => new NativeTool({ type }));
      expect(error.message).toContain("'computer_use_preview'");
      expect(error.message).toContain('description');
      expect(new NativeTool({ type, description: 'Operate a computer.' }).name).toBe(
        'computer_use_preview',
      );
    });
  });

  describe('.withDescription', () => {
    it('should return a NativeTool copy that keeps its type and config', () => {
      const tool = new NativeTool({ type: 'file_search', config: { max_num_results: 5 } });
      const copy = tool.withDescription('Search the product manuals.');
      expect(copy).toBeInstanceOf(NativeTool);
      expect(copy.type).toBe('file_search');
      expect(copy.config).toBe(tool.config);
      expect(copy.native).toBe(true);
      expect(copy.description).toBe('Search the product manuals.');
      expect(tool.description).not.toBe('Search the product manuals.');
    });
  });
});
