import { type NativeTool, PromptValidationError } from '../../index.js';
import { checkNativeToolConfig } from '../../provider/index.js';
import { openaiNativeContract } from './openai-native-contract.js';

/** Types of environment in which OpenAI itself runs a `shell` tool. */
const hostedShellEnvironments = new Set(['container_auto', 'container_reference']);

/**
 * The Responses API `tools[]` entry of a native tool: `{ type, ...config }`
 * (`code_interpreter` gets `container: { type: 'auto' }` unless configured).
 *
 * @throws PromptValidationError when OpenAI cannot run the tool as declared:
 * `apply_patch`, and `shell` without a container `environment`, run on the
 * client (use `ApplyPatchTool` / `ShellTool`); `file_search` needs
 * `vector_store_ids`; `mcp` needs a `server_label`; a config field the
 * Responses API's tool does not have, or of the wrong JSON type (see
 * `openaiNativeContract`).
 */
export function nativeToolEntry(tool: NativeTool): Record<string, unknown> {
  const config = tool.config;
  const fail = (problem: string): never => {
    throw new PromptValidationError(`OpenAIAdapter: native tool '${tool.name}' ${problem}`, {
      placeholder: tool.name,
    });
  };
  switch (tool.type) {
    case 'apply_patch':
      return fail(
        "of type 'apply_patch' is executed by the client in OpenAI's design. " +
          "Declare `new ApplyPatchTool({ handler })` from 'affordance/openai' instead.",
      );
    case 'shell': {
      const environment = config['environment'] as { type?: unknown } | undefined;
      if (!hostedShellEnvironments.has(String(environment?.type))) {
        return fail(
          "of type 'shell' runs on the client unless its config sets a container environment " +
            "({ environment: { type: 'container_auto' } }). Declare `new ShellTool({ handler })` " +
            "from 'affordance/openai' to run the commands yourself.",
        );
      }
      break;
    }
    case 'file_search': {
      const ids = config['vector_store_ids'];
      if (!Array.isArray(ids) || ids.length === 0) {
        return fail(
          "of type 'file_search' needs the vector stores to search: config: { vector_store_ids: ['vs_...'] }.",
        );
      }
      break;
    }
    case 'mcp':
      if (typeof config['server_label'] !== 'string') {
        return fail(
          "of type 'mcp' needs config.server_label and config.server_url (or connector_id).",
        );
      }
      break;
    case 'web_fetch':
    case 'code_execution':
      return fail(
        `of type '${tool.type}' is an Anthropic server tool. On OpenAI use 'web_search' or ` +
          "'code_interpreter', or run the prompt with AnthropicAdapter from 'affordance/anthropic'.",
      );
    case 'code_interpreter':
      checkNativeToolConfig('OpenAIAdapter', tool, openaiNativeContract);
      return { type: tool.type, container: { type: 'auto' }, ...config };
    case 'web_search':
    case 'image_generation':
      break;
  }
  checkNativeToolConfig('OpenAIAdapter', tool, openaiNativeContract);
  return { type: tool.type, ...config };
}
