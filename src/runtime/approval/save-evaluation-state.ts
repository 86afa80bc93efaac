import { randomUUID } from 'node:crypto';

import type { Clock } from '../../core/clock.js';
import { describeThrown } from '../../core/errors/describe-thrown.js';
import { EvaluationStateError } from '../../core/errors/evaluation-state-error.js';
import { nestsDeeperThan } from '../../core/nests-deeper-than.js';
import { sha256, toolContractHash } from '../../prompt/overrides/prompt-descriptor.js';
import type { RenderedPrompt } from '../../prompt/rendered-prompt.js';
import type { ConversationMessage, ToolChoice } from '../../provider/conversation.js';
import type { ProviderAdapter } from '../../provider/provider-adapter.js';
import type { TokenUsage } from '../../provider/token-usage.js';
import type { EvaluationScope } from '../scope/evaluation-scope.js';
import type { PausedCalls } from '../tool-executor.js';
import {
  EVALUATION_STATE_FORMAT,
  EVALUATION_STATE_VERSION,
  type EvaluationState,
  type SavedContentPart,
  type SavedMessage,
} from './evaluation-state.js';
import { isMediaPart, type MessageContent } from '../../content/content-part.js';
import { Media } from '../../content/media.js';
import type { StateSigner } from './state-signer.js';

/**
 * The most levels of objects and arrays a saved state may nest (its own
 * layout takes about 6, the rest is the conversation's and the calls' JSON):
 * a deeper state is neither saved nor resumed, so checking one never
 * overflows the call stack. @internal
 */
export const MAX_STATE_DEPTH = 1_000;

/** What a paused evaluation hands over to be saved. @internal */
export interface PauseInput {
  readonly scope: EvaluationScope;
  readonly messages: readonly ConversationMessage[];
  readonly paused: PausedCalls;
  readonly usage: TokenUsage | undefined;
  readonly toolChoice: ToolChoice;
  readonly turn: number;
  readonly maxTurns: number;
  readonly elapsedMs: number;
  readonly clock: Clock;
  /** Signs the state with the runtime's `stateSecret` (docs/guide/policies-and-approvals.md). */
  readonly signer: StateSigner;
}

/** The saved state of an evaluation that paused for approval. @internal */
export function saveEvaluationState(input: PauseInput): EvaluationState {
  const { scope, paused } = input;
  const budget = scope.budgetTracker?.budget;
  const usage = input.usage;
  const body: Omit<EvaluationState, 'integrity'> = {
    format: EVALUATION_STATE_FORMAT,
    version: EVALUATION_STATE_VERSION,
    stateId: randomUUID(),
    savedAt: new Date(input.clock.now()).toISOString(),
    evaluationId: scope.evaluationId,
    prompt: {
      ns: scope.prompt.ns,
      key: scope.prompt.key,
      contractHash: promptContractHash(scope.rendered),
    },
    adapter: adapterName(scope.adapter),
    session: { sessionId: scope.session.sessionId, version: scope.session.version },
    turn: input.turn,
    maxTurns: input.maxTurns,
    elapsedMs: input.elapsedMs,
    toolChoice: input.toolChoice,
    usage:
      usage === undefined
        ? null
        : {
            inputTokens: usage.inputTokens ?? null,
            outputTokens: usage.outputTokens ?? null,
            cachedTokens: usage.cachedTokens ?? null,
            cacheWriteTokens: usage.cacheWriteTokens ?? null,
            reasoningTokens: usage.reasoningTokens ?? null,
          },
    budget:
      budget === undefined
        ? null
        : {
            maxTotalTokens: budget.maxTotalTokens ?? null,
            maxInputTokens: budget.maxInputTokens ?? null,
            maxOutputTokens: budget.maxOutputTokens ?? null,
          },
    messages: input.messages.map(savedMessage),
    remaining: paused.remaining.map((call) => ({
      callId: call.callId,
      name: call.name,
      arguments: jsonOf(call.arguments, `the arguments of call ${call.callId}`),
    })),
    pending: paused.pending.map((call) => ({
      callId: call.callId,
      name: call.name,
      params: jsonOf(call.params, `the params of call ${call.callId}`),
      arguments: jsonOf(call.arguments, `the arguments of call ${call.callId}`),
      reason: call.reason,
    })),
    decided: paused.decided.map((decision) => ({
      callId: decision.callId,
      approved: decision.approved,
      ...(decision.message === undefined ? {} : { message: decision.message }),
    })),
  };
  return Object.assign(body, { integrity: integrityOf(body, input) });
}

/**
 * The signature of a state's body; refuses a body nested deeper than
 * {@link MAX_STATE_DEPTH}, which no resume would accept.
 */
function integrityOf(
  body: Omit<EvaluationState, 'integrity'>,
  input: PauseInput,
): EvaluationState['integrity'] {
  const { scope } = input;
  const subject =
    input.paused.pending.length > 0
      ? `Pausing evaluation ${scope.evaluationId} of ${scope.prompt.label} for approval`
      : `Saving the checkpoint of evaluation ${scope.evaluationId} of ${scope.prompt.label}`;
  if (nestsDeeperThan(body, MAX_STATE_DEPTH)) {
    throw new EvaluationStateError({
      subject,
      problem: `the state would nest deeper than ${MAX_STATE_DEPTH} levels (a call's arguments, a provider item or a result value nests that deep), and no runtime resumes such a state.`,
      fix: 'Keep tool arguments, provider items and result values less deeply nested.',
    });
  }
  return input.signer.sign(body, subject);
}

/**
 * The contract hash of a rendered prompt's tools: each tool's name with the
 * hash of its description, params and result schemas, in name order. @internal
 */
export function promptContractHash(rendered: RenderedPrompt): string {
  const tools = rendered.tools
    .map((tool) => `${tool.name}=${toolContractHash(tool)}`)
    .sort()
    .join('\n');
  return sha256(tools);
}

/** How a state names the adapter that answered (its provider name, e.g. `openai`). @internal */
export function adapterName(adapter: ProviderAdapter): string {
  return adapter.name;
}

function savedMessage(message: ConversationMessage, index: number): SavedMessage {
  switch (message.role) {
    case 'system':
      return { role: message.role, content: message.content };
    case 'user':
      return { role: 'user', content: savedContent(message.content) };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        toolCalls: message.toolCalls.map((call) => ({
          callId: call.callId,
          name: call.name,
          arguments: jsonOf(call.arguments, `the arguments of call ${call.callId}`),
        })),
        providerItems: jsonOf(
          message.providerItems,
          `the provider items of message ${index}`,
        ) as unknown[],
      };
    case 'tool':
      return {
        role: 'tool',
        callId: message.callId,
        name: message.name,
        content: message.content,
        result: {
          message: message.result.message,
          success: message.result.success,
          value: valueOf(message.result.value),
          excludeValueFromContext: message.result.excludeValueFromContext,
          ...(message.result.parts.length === 0
            ? {}
            : { parts: message.result.parts.map((part) => Media.ref(part)) }),
        },
      };
  }
}

/** A user message's content as a state saves it: media by reference, never the bytes. */
function savedContent(content: MessageContent): string | SavedContentPart[] {
  if (typeof content === 'string') return content;
  return content.map((part) =>
    isMediaPart(part) ? Media.ref(part) : { type: 'text', text: part.text },
  );
}

/** A tool result's value in JSON form; `null` when it has none (the model read the message). */
function valueOf(value: unknown): unknown {
  try {
    const text = JSON.stringify(value) as string | undefined;
    return text === undefined ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** `value` in JSON form, or an error naming what could not be saved. */
function jsonOf(value: unknown, what: string): unknown {
  try {
    const text = JSON.stringify(value) as string | undefined;
    return text === undefined ? null : (JSON.parse(text) as unknown);
  } catch (error) {
    throw new EvaluationStateError({
      subject: 'Pausing for approval',
      problem: `${what} cannot be saved as JSON: ${describeThrown(error)}.`,
      fix: 'Keep tool arguments, params and provider items JSON-serialisable (no BigInt, no cycles).',
      cause: error,
    });
  }
}
