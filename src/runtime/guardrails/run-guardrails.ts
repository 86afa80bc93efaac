import { contentText, mediaParts, type MessageContent } from '../../content/content-part.js';
import { Media } from '../../content/media.js';
import { describeThrown } from '../../core/errors/describe-thrown.js';
import { GuardrailError } from '../../core/errors/guardrail-error.js';
import type {
  AnswerPolicy,
  AnswerPolicyRef,
  AnswerVerdict,
  InputPolicy,
  InputPolicyRef,
  InputVerdict,
} from '../../prompt/guardrail-policy.js';
import { evaluationEventFields } from '../events/event-fields.js';
import { GuardrailChecked, type GuardrailCheckedInit } from '../events/guardrail-checked.js';
import type { EvaluationScope } from '../scope/evaluation-scope.js';
import type { EvaluationObserver } from '../telemetry/evaluation-observer.js';
import type { ToolCallOutcome } from '../tool-call-outcome.js';
import type { ConversationMessage, ProviderTurn } from '../../provider/conversation.js';

/**
 * Runs the input policies of the prompt and its rendered sections on
 * `input`, in order, each on what the one before left; returns the input to
 * send. @throws GuardrailError when one refuses it (no request is made). @internal
 */
export async function guardInput(
  scope: EvaluationScope,
  input: MessageContent | undefined,
  observer: EvaluationObserver | undefined,
): Promise<MessageContent | undefined> {
  const refs = scope.rendered.inputPolicies;
  if (input === undefined || refs.length === 0) return input;
  if (typeof input !== 'string') {
    // Policies read the text of a multi-part input; a rewrite replaces its text parts, media kept in order.
    const text = contentText(input);
    const guarded = await guardText(scope, refs, text, observer);
    if (guarded === text) return input;
    return [Media.text(guarded), ...mediaParts(input)];
  }
  return guardText(scope, refs, input, observer);
}

async function guardText(
  scope: EvaluationScope,
  refs: readonly InputPolicyRef[],
  input: string,
  observer: EvaluationObserver | undefined,
): Promise<string> {
  let current = input;
  for (const ref of refs) {
    const policy = resolve<InputPolicy>(scope, ref);
    const name = nameOf(policy, ref);
    let verdict: InputVerdict;
    try {
      verdict = await policy.checkInput({
        input: current,
        prompt: scope.prompt.label,
        session: scope.session,
      });
    } catch (error) {
      verdict = {
        kind: 'refuse',
        message: `Input policy '${name}' failed: ${describeThrown(error)}`,
      };
    }
    const kind = verdict.kind as string;
    if (kind === 'rewrite' && verdict.kind === 'rewrite' && typeof verdict.input === 'string') {
      record(scope, observer, { stage: 'input', policy: name, verdict: 'rewrite' });
      current = verdict.input;
    } else if (kind === 'allow') {
      record(scope, observer, { stage: 'input', policy: name, verdict: 'allow' });
    } else {
      const message =
        verdict.kind === 'refuse' && typeof verdict.message === 'string'
          ? verdict.message
          : `Input policy '${name}' returned no valid verdict (use Guardrail.allow(), refuse(message) or rewrite(input)).`;
      record(scope, observer, { stage: 'input', policy: name, verdict: 'refuse', reason: message });
      throw new GuardrailError(`Input policy '${name}' refused the input: ${message}`, {
        stage: 'input',
        policy: name,
        reason: message,
        prompt: scope.prompt.label,
      });
    }
  }
  return current;
}

/** What {@link guardAnswer} is given of the answer. @internal */
export interface GuardedAnswer {
  readonly text: string | null;
  readonly output: unknown;
  readonly toolCalls: readonly ToolCallOutcome[];
}

/**
 * Runs the answer policies on answer `attempt` (1 first): `undefined` when
 * every one allows it, else the reason to send back to the model for
 * another turn. @throws GuardrailError when one fails it, or asks for a retry
 * beyond `maxRetries`. @internal
 */
export async function guardAnswer(
  scope: EvaluationScope,
  answer: GuardedAnswer,
  attempt: number,
  observer: EvaluationObserver | undefined,
): Promise<string | undefined> {
  const refs = scope.rendered.answerPolicies;
  if (refs.length === 0) return undefined;
  const toolCalls = answer.toolCalls.map((outcome) => ({
    name: outcome.call.name,
    success: outcome.result.success,
    value: outcome.result.value,
    message: outcome.message,
  }));
  for (const ref of refs) {
    const policy = resolve<AnswerPolicy>(scope, ref);
    const name = nameOf(policy, ref);
    let verdict: AnswerVerdict;
    try {
      verdict = await policy.checkAnswer({
        text: answer.text,
        output: answer.output,
        toolCalls,
        attempt,
        prompt: scope.prompt.label,
        session: scope.session,
      });
    } catch (error) {
      verdict = { kind: 'fail', reason: `the policy threw: ${describeThrown(error)}` };
    }
    if (verdict.kind === 'allow') {
      record(scope, observer, { stage: 'answer', policy: name, verdict: 'allow', attempt });
      continue;
    }
    const reason =
      typeof (verdict as { reason?: unknown }).reason === 'string'
        ? verdict.reason
        : 'the policy returned no valid verdict (use Guardrail.allow(), retry(reason) or fail(reason))';
    const retries = scope.prompt.maxAnswerRetries;
    if (verdict.kind === 'retry' && attempt <= retries) {
      record(scope, observer, { stage: 'answer', policy: name, verdict: 'retry', reason, attempt });
      return reason;
    }
    record(scope, observer, { stage: 'answer', policy: name, verdict: 'fail', reason, attempt });
    const why =
      verdict.kind === 'retry'
        ? `it still asked for another answer after ${retries} retries (maxAnswerRetries): ${reason}`
        : reason;
    throw new GuardrailError(
      `Answer policy '${name}' failed the answer: ${why}. Fix: tell the model in the prompt what a valid answer needs, or raise maxAnswerRetries on the prompt.`,
      { stage: 'answer', policy: name, reason, prompt: scope.prompt.label },
    );
  }
  return undefined;
}

/** The messages that send `answer` back to the model with the guardrail's `reason`. @internal */
export function answerSentBack(answer: ProviderTurn, reason: string): ConversationMessage[] {
  return [
    {
      role: 'assistant',
      content: answer.text ?? null,
      toolCalls: [],
      providerItems: answer.providerItems ?? [],
    },
    { role: 'user', content: reason },
  ];
}

/** An instance as it is; a class resolved in the evaluation's container (bound there when the application did not). */
function resolve<P>(scope: EvaluationScope, ref: P | (abstract new (...args: never[]) => P)): P {
  if (typeof ref !== 'function') return ref;
  const container = scope.container;
  const id = ref as unknown as new () => P;
  if (!container.isBound(id)) container.bind(id).toSelf();
  return container.get(id);
}

function nameOf(
  policy: { readonly name?: string | undefined },
  ref: InputPolicyRef | AnswerPolicyRef,
): string {
  if (typeof policy.name === 'string' && policy.name !== '') return policy.name;
  if (typeof ref === 'function') return ref.name;
  return (policy.constructor as { name?: string }).name ?? 'policy';
}

function record(
  scope: EvaluationScope,
  observer: EvaluationObserver | undefined,
  fields: Omit<GuardrailCheckedInit, keyof ReturnType<typeof evaluationEventFields>>,
): void {
  const event = new GuardrailChecked(Object.assign(evaluationEventFields(scope), fields));
  scope.session.dispatch(event);
  observer?.guardrail?.(event);
}
