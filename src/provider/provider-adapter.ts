import { injectable } from 'inversify';

import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { type ToolSpec, toolSpecOf } from './tool-spec.js';
import type { ProviderTurn } from './conversation.js';
import type { ProviderCapabilities } from './provider-capabilities.js';
import type { ProviderRequest } from './provider-request.js';
import { partsOfTurn, type ProviderStreamPart } from './provider-stream-part.js';

/**
 * The provider seam: an adapter turns one neutral {@link ProviderRequest}
 * into one neutral {@link ProviderTurn}, and declares what it can do. It holds
 * no runtime and no per-evaluation state: the runtime owns the loop, the tool
 * schemas, usage totals and evaluation identity. Bind one in the container
 * (`container.bind(ProviderAdapter).to(OpenAIAdapter)`) and run prompts with
 * `runtime.evaluate(prompt, options)`.
 */
@injectable()
export abstract class ProviderAdapter {
  /** Short provider name recorded in events, e.g. `openai`. */
  abstract readonly name: string;

  /** What this adapter can do. */
  abstract readonly capabilities: ProviderCapabilities;

  /**
   * The id of the model this adapter asks for (e.g. `gpt-5-mini`), when it
   * has one: telemetry reports it as the requested model. Undefined by default.
   */
  declare readonly model?: string | undefined;

  /**
   * Sends one request to the provider and returns its answer in neutral form;
   * `usage` is this request's own, the runtime adds it up.
   */
  abstract request(request: ProviderRequest): Promise<ProviderTurn>;

  /**
   * Sends one request and yields the answer as it arrives: deltas, then
   * exactly one `turn` part, last, equal to what {@link ProviderAdapter.request}
   * returns for the same answer. An adapter that streams (`capabilities.streaming`)
   * overrides it and retries a failed request only until its first part was
   * yielded: after that a failure is thrown to the consumer, never silently
   * restarted. The default calls `request()` and yields the whole turn's parts.
   */
  async *stream(request: ProviderRequest): AsyncGenerator<ProviderStreamPart, void, undefined> {
    yield* partsOfTurn(await this.request(request));
  }

  /**
   * How this adapter offers `tool`: the runtime asks once per evaluation,
   * sends the result with every request and reads the model's arguments with
   * the same schema choice. The default is {@link toolSpecOf} with
   * `capabilities.strictTools`; override it for tools the provider defines
   * itself (their arguments arrive in the provider's shape).
   * @param descriptions field descriptions from prompt overrides, by field name.
   */
  toolSpec(tool: ToolDefinition, descriptions?: ReadonlyMap<string, string>): ToolSpec {
    return toolSpecOf(tool, this.capabilities.strictTools, descriptions);
  }

  /**
   * Checks that this provider can offer every tool of a prompt, before any
   * request. The default rejects provider-executed (`NativeTool`) tools unless
   * `capabilities.nativeTools` is on.
   * @throws PromptValidationError naming the tool and what the adapter supports.
   */
  validate(tools: readonly ToolDefinition[]): void {
    if (this.capabilities.nativeTools) return;
    for (const tool of tools) {
      if (tool.native) {
        throw new PromptValidationError(
          `Adapter '${this.name}' cannot offer the provider-executed tool '${tool.name}'. ` +
            'Use an adapter that supports it (e.g. OpenAIAdapter with the Responses API) or remove the NativeTool.',
          { placeholder: tool.name },
        );
      }
    }
  }
}
