import { describeThrown } from '../core/errors/describe-thrown.js';
import type { PromptEvaluationError } from '../core/errors/prompt-evaluation-error.js';
import { evaluationEventFields } from './events/event-fields.js';
import { PromptExecuted } from './events/prompt-executed.js';
import type { CompletedResponse } from './prompt-response.js';
import type { ProviderTurn } from '../provider/conversation.js';
import type { ProviderAdapter } from '../provider/provider-adapter.js';
import type { EvaluationScope } from './scope/evaluation-scope.js';

/** The provider and model that served a turn. @internal */
export interface ServedBy {
  readonly provider: string;
  readonly model: string | undefined;
}

/** Who served `answer`: the turn's own `provider` and `model`, else the adapter's. @internal */
export function servedBy(answer: ProviderTurn, adapter: ProviderAdapter): ServedBy {
  return { provider: answer.provider ?? adapter.name, model: answer.model ?? adapter.model };
}

/** How the evaluation turns a failure into its own error. @internal */
export type FailResponse = (
  message: string,
  extra: { cause?: unknown; providerPayload?: unknown },
) => PromptEvaluationError;

/**
 * Records the evaluation's `PromptExecuted`; a reducer or subscriber failing
 * on it fails the evaluation, with the answer in `providerPayload`. @internal
 */
export function recordPromptExecuted(
  scope: EvaluationScope,
  response: CompletedResponse,
  durationMs: number,
  fail: FailResponse,
  servedBy: ServedBy,
): void {
  const executed = scope.session.dispatch(
    new PromptExecuted(
      Object.assign(evaluationEventFields(scope), {
        result: { text: response.text, output: response.output },
        usage: response.usage,
        durationMs,
        provider: servedBy.provider,
        model: servedBy.model,
      }),
    ),
  );
  if (executed.ok) return;
  throw fail(
    `Recording the result failed: ${executed.errors.map((failure) => describeThrown(failure.error)).join('; ')}. ` +
      'Fix the failing PromptExecuted subscriber or reducer; the answer is in providerPayload.',
    {
      cause: new AggregateError(executed.errors.map((failure) => failure.error)),
      providerPayload: response,
    },
  );
}
