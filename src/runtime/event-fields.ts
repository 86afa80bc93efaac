import type { EvaluationScope } from '../container/evaluation-scope.js';
import type { PromptEventInit } from '../events/prompt-event.js';
import { ToolResult } from '../tools/tool-result.js';
import { cloneValue } from './clone-value.js';

/** The prompt, adapter, session and evaluation fields every event of an evaluation carries. @internal */
export function evaluationEventFields(scope: EvaluationScope): PromptEventInit {
  return {
    promptName: scope.prompt.name,
    promptNs: scope.prompt.ns,
    promptKey: scope.prompt.key,
    adapter: scope.adapter.name,
    sessionId: scope.session.sessionId,
    evaluationId: scope.evaluationId,
  };
}

/**
 * The result as the session records it: the session freezes what it stores, so
 * the value is a copy and the application's own objects are never frozen. @internal
 */
export function resultForSession(result: ToolResult): ToolResult {
  if (result.value === null) return result;
  return new ToolResult({
    message: result.message,
    value: cloneValue(result.value),
    success: result.success,
    excludeValueFromContext: result.excludeValueFromContext,
  });
}
