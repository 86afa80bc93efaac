import type { EvaluateOptions } from '../evaluate-options.js';
import type { EvaluationScope } from '../scope/evaluation-scope.js';
import type { EvaluationStart } from './runtime-telemetry.js';

/** What a telemetry observer learns of an evaluation as it starts. @internal */
export function evaluationStart(
  scope: EvaluationScope,
  options: EvaluateOptions,
  streamed: boolean,
  resumed: boolean,
): EvaluationStart {
  const rendered = scope.rendered;
  return {
    evaluationId: scope.evaluationId,
    prompt: scope.requestPrompt,
    sessionId: scope.session.sessionId,
    adapter: scope.adapter,
    streamed,
    resumed,
    structuredOutput: rendered.outputType !== undefined,
    renderedPrompt: rendered.text,
    input: options.input,
  };
}
