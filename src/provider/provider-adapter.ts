import { injectable } from 'inversify';

import { ConfigurationError } from '../core/errors/configuration-error.js';
import { PromptValidationError } from '../core/errors/prompt-validation-error.js';
import type { Prompt } from '../prompt/prompt.js';
import type { RenderedPrompt } from '../prompt/rendered-prompt.js';
import type { SchemaProfile } from '../schema/params-json-schema.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import type { AffordanceRuntime } from '../runtime/affordance-runtime.js';
import type { ProviderTurn } from './conversation.js';
import type { EvaluateOptions } from '../runtime/evaluate-options.js';
import type { PromptResponse } from '../runtime/prompt-response.js';
import type { ProviderRequest } from './provider-request.js';

/**
 * The provider seam. An adapter turns one {@link ProviderRequest} into one
 * {@link ProviderTurn}; the shared evaluation loop (rendering, tool dispatch,
 * deadlines, budgets, structured output, events) lives in the runtime, so every
 * adapter behaves the same. Bind one in the container:
 * `container.bind(ProviderAdapter).to(OpenAIAdapter)`.
 */
@injectable()
export abstract class ProviderAdapter {
  /** Short provider name recorded in events, e.g. `openai`. */
  abstract readonly name: string;

  /** The runtime that runs this adapter's evaluations. */
  protected readonly runtime: AffordanceRuntime;

  /**
   * @throws ConfigurationError when `runtime` is not an affordance runtime, e.g.
   *   an adapter resolved from a container `installAffordance` was never called on.
   */
  constructor(runtime: AffordanceRuntime) {
    const given: unknown = runtime;
    if (!isRuntime(given)) {
      const name = new.target.name || 'ProviderAdapter';
      throw new ConfigurationError({
        subject: name,
        problem: `was built without an AffordanceRuntime (got ${given === null ? 'null' : typeof given}): the container it was resolved from has no affordance installed.`,
        fix:
          'Call installAffordance(container) before resolving the adapter, e.g. ' +
          '`installAffordance(container); container.bind(ProviderAdapter).to(OpenAIAdapter)`; ' +
          'build an adapter yourself on the runtime it returns: new ScriptedAdapter(installAffordance(container), script).',
      });
    }
    this.runtime = runtime;
  }

  /** Sends one request to the provider and returns its answer in provider-neutral form. */
  abstract request(request: ProviderRequest): Promise<ProviderTurn>;

  /**
   * Checks that this provider can offer every tool of the prompt, before any
   * request. The default rejects provider-executed (`NativeTool`) tools.
   * @throws PromptValidationError naming the tool and what the adapter supports.
   */
  validate(rendered: RenderedPrompt): void {
    for (const tool of rendered.tools) {
      if (tool.native) {
        throw new PromptValidationError(
          `Adapter '${this.name}' cannot offer the provider-executed tool '${tool.name}'. ` +
            'Use an adapter that supports it (e.g. OpenAIAdapter with the Responses API) or remove the NativeTool.',
          { placeholder: tool.name },
        );
      }
    }
  }

  /**
   * The schema profile this adapter shows the model for `tool`'s params; with
   * `openai-strict`, a `null` for an optional field is read as "absent".
   */
  argumentsProfile(_tool: ToolDefinition): SchemaProfile {
    return 'standard';
  }

  /**
   * Evaluates `prompt`: renders it, asks the provider, runs the tools the model
   * calls and loops until the model answers without tool calls, then parses the
   * structured output. Events land in `options.session` (a new session when
   * omitted). From a tool, nest with
   * `context.adapter.evaluate(child, { session: context.session, deadline: context.deadline })`.
   */
  evaluate<O>(prompt: Prompt<O>, options: EvaluateOptions = {}): Promise<PromptResponse<O>> {
    return this.runtime.evaluate(this, prompt, options);
  }
}

// Duck-typed rather than `instanceof` (a type-only import here): the runtime imports this module.
function isRuntime(value: unknown): value is AffordanceRuntime {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { evaluate?: unknown }).evaluate === 'function'
  );
}
