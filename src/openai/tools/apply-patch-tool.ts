import { ToolDefinition, type ToolHandler } from '../../index.js';
import { ApplyPatchOperation } from './apply-patch-operation.js';

/** Fields of an {@link ApplyPatchTool}. */
export interface ApplyPatchToolInit {
  /** Applies the operation to your files; a failed result is reported to the model as `failed`. */
  readonly handler: ToolHandler<ApplyPatchOperation>;
  /** The tool's name in the prompt; `apply_patch` by default. */
  readonly name?: string | undefined;
  /** Shown on Chat Completions, where the tool is an ordinary function. */
  readonly description?: string | undefined;
}

/**
 * OpenAI's `apply_patch` tool, executed by you: the model sends
 * `apply_patch_call`s (create, update or delete a file with a diff), your
 * handler applies them, and the adapter answers with `apply_patch_call_output`
 * (`completed` or `failed`, with the result's text as output). On Chat
 * Completions it is offered as a plain function with the same params.
 */
export class ApplyPatchTool extends ToolDefinition<ApplyPatchOperation> {
  /** The Responses tool type. */
  readonly openaiType = 'apply_patch' as const;

  constructor(init: ApplyPatchToolInit) {
    super({
      name: init.name ?? 'apply_patch',
      description: init.description ?? 'Create, update or delete a file with a diff.',
      params: ApplyPatchOperation,
      handler: init.handler,
    });
  }
}
