import { ToolDefinition, type ToolHandler } from '../../index.js';
import { ShellCallParams } from './shell-call-params.js';
import { ShellCommandOutput } from './shell-command-output.js';

/** Fields of a {@link ShellTool}. */
export interface ShellToolInit {
  /** Runs the commands (in your sandbox) and returns one output per command. */
  readonly handler: ToolHandler<ShellCallParams, readonly ShellCommandOutput[]>;
  /** The tool's name in the prompt; `shell` by default. */
  readonly name?: string | undefined;
  /** Shown on Chat Completions, where the tool is an ordinary function. */
  readonly description?: string | undefined;
  /** The Responses `environment` of the tool (`{ type: 'local' }`); omitted by default. */
  readonly environment?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * OpenAI's `shell` tool, executed by you: the model sends `shell_call`s, your
 * handler runs the commands, and the adapter answers with the
 * `shell_call_output` items the Responses API expects. (A `NativeTool` of type
 * `shell` with a container `environment` runs on OpenAI's side instead.) On
 * Chat Completions it is offered as a plain function with the same params.
 */
export class ShellTool extends ToolDefinition<ShellCallParams, readonly ShellCommandOutput[]> {
  /** The Responses tool type. */
  readonly openaiType = 'shell' as const;
  /** The Responses `environment`, if any. */
  readonly environment: Readonly<Record<string, unknown>> | undefined;

  constructor(init: ShellToolInit) {
    super({
      name: init.name ?? 'shell',
      description: init.description ?? 'Run shell commands and read their output.',
      params: ShellCallParams,
      result: [ShellCommandOutput],
      handler: init.handler,
    });
    this.environment = init.environment;
  }
}
