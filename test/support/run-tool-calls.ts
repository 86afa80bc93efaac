import type { Container } from 'inversify';

import {
  type Prompt,
  type PromptResponse,
  type ResourceRegistry,
  Session,
  type ToolCallOutcome,
} from 'affordance';
import { createTestRuntime, type ScriptedToolCall } from 'affordance/testing';

/** Options of {@link runToolCalls}. */
export interface RunToolCallsOptions {
  readonly session?: Session;
  readonly resources?: ResourceRegistry;
  readonly params?: readonly object[];
  readonly configure?: (container: Container) => void;
}

/** What {@link runToolCalls} returns. */
export interface ToolCallsRun {
  readonly outcomes: readonly ToolCallOutcome[];
  readonly session: Session;
  readonly response: PromptResponse;
}

/**
 * Evaluates `prompt` against a scripted model that makes the given tool calls,
 * one model turn per group, then answers "done".
 */
export async function runToolCalls(
  prompt: Prompt,
  turns: readonly (readonly ScriptedToolCall[])[],
  options: RunToolCallsOptions = {},
): Promise<ToolCallsRun> {
  const { evaluate } = createTestRuntime({
    script: [...turns.map((toolCalls) => ({ toolCalls })), { text: 'done' }],
    ...(options.configure === undefined ? {} : { configure: options.configure }),
  });
  const session = options.session ?? new Session();
  const response = await evaluate(prompt, {
    session,
    ...(options.resources === undefined ? {} : { resources: options.resources }),
    ...(options.params === undefined ? {} : { params: options.params }),
  });
  return { outcomes: response.toolCalls, session, response };
}

/** The outcome at `index`, failing the test when there is none. */
export function outcomeAt(run: ToolCallsRun, index: number): ToolCallOutcome {
  const outcome = run.outcomes[index];
  if (outcome === undefined) throw new Error(`no tool call #${index} (${run.outcomes.length} ran)`);
  return outcome;
}
