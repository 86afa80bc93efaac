import { contentText, mediaParts } from '../../content/content-part.js';
import { Media } from '../../content/media.js';
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
    input:
      options.input === undefined || typeof options.input === 'string'
        ? options.input
        : contentText(options.input),
    inputMedia:
      options.input === undefined ? [] : mediaParts(options.input).map((part) => Media.ref(part)),
  };
}
