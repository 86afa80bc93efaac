import type { EvaluationStreamPart, PendingToolCall, TokenUsage, ToolInvoked } from 'affordance';
import type { Plan } from 'affordance/planning';

/** Token counts as the chat page shows them. */
export interface UsageView {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** A tool call as the chat page shows it once it is recorded. */
export interface ToolCallView {
  readonly tool: string;
  readonly callId: string | null;
  /** The arguments as the model sent them (JSON text). */
  readonly arguments: string;
  readonly outcome: 'success' | 'failure' | 'unknown' | 'denied' | 'timeout';
  /** The tool message the model read back. */
  readonly message: string;
  /** The images the result showed the model, served at `chat/media/<hash>`. */
  readonly images: readonly { readonly hash: string; readonly mediaType: string }[];
}

/** A call waiting for a person's approval, as the chat page shows its approve / reject card. */
export interface PendingCallView {
  /** Decide the call by this id. */
  readonly callId: string;
  readonly tool: string;
  /** The arguments as the model sent them (JSON text). */
  readonly arguments: string;
  /** Why it needs approval. */
  readonly reason: string;
}

/** The session's plan as the chat page shows it. */
export interface PlanView {
  readonly objective: string;
  readonly status: string;
  readonly steps: readonly {
    readonly stepId: number;
    readonly title: string;
    readonly status: string;
  }[];
}

/**
 * One event of `GET /chat/stream` (the `data` of an SSE message, as JSON):
 * a part of the evaluation stream in plain JSON, never the runtime's objects,
 * plus a `plan` event after each planning call. A stream that pauses for
 * approval ends with one `approval` event: the calls waiting, and the
 * `stateId` to resume with (`GET /chat/resume?stateId=...&decisions=[...]`).
 */
export type ChatEvent =
  | { readonly type: 'turn-start'; readonly turn: number }
  | {
      readonly type: 'text-delta' | 'reasoning-delta';
      readonly turn: number;
      readonly delta: string;
    }
  | {
      readonly type: 'tool-call-start';
      readonly turn: number;
      readonly callId: string;
      readonly tool: string;
    }
  | {
      readonly type: 'tool-arguments-delta';
      readonly turn: number;
      readonly callId: string;
      readonly delta: string;
    }
  | ({ readonly type: 'tool-call-end' | 'native-call'; readonly turn: number } & ToolCallView)
  | { readonly type: 'plan'; readonly plan: PlanView | null }
  | {
      readonly type: 'usage';
      readonly turn: number;
      readonly usage: UsageView;
      readonly total: UsageView;
    }
  | {
      readonly type: 'turn-end';
      readonly turn: number;
      readonly finishReason: string | null;
      readonly toolCalls: number;
    }
  | {
      readonly type: 'answer';
      readonly text: string;
      readonly turns: number;
      readonly usage: UsageView;
    }
  | {
      readonly type: 'approval';
      readonly stateId: string;
      readonly pending: readonly PendingCallView[];
    }
  | { readonly type: 'error'; readonly message: string };

/**
 * The chat events for one part of the stream. `currentPlan` reads the
 * session's plan, sent after every call of a planning tool.
 */
export function chatEventsOf(
  part: EvaluationStreamPart,
  currentPlan: () => Plan | undefined,
): ChatEvent[] {
  switch (part.type) {
    case 'turn-start':
      return [{ type: part.type, turn: part.turn }];
    case 'text-delta':
    case 'reasoning-delta':
      return [{ type: part.type, turn: part.turn, delta: part.delta }];
    case 'tool-call-start':
      return [{ type: part.type, turn: part.turn, callId: part.callId, tool: part.name }];
    case 'tool-arguments-delta':
      return [{ type: part.type, turn: part.turn, callId: part.callId, delta: part.delta }];
    case 'usage':
      return [
        {
          type: part.type,
          turn: part.turn,
          usage: usageView(part.usage),
          total: usageView(part.total),
        },
      ];
    case 'native-call':
      return [
        Object.assign(
          { type: part.type, turn: part.turn },
          toolCallView(part.event, part.event.renderedMessage),
        ),
      ];
    case 'turn-end':
      return [
        {
          type: part.type,
          turn: part.turn,
          finishReason: part.finishReason ?? null,
          toolCalls: part.toolCalls,
        },
      ];
    case 'tool-call-end': {
      const call: ChatEvent = Object.assign(
        { type: part.type, turn: part.turn },
        toolCallView(part.event, part.message),
      );
      if (!part.event.name.startsWith('planning_')) return [call];
      return [call, { type: 'plan', plan: planView(currentPlan()) }];
    }
    case 'answer':
      return [
        {
          type: part.type,
          text: part.response.text ?? '',
          turns: part.response.turns,
          usage: usageView(part.response.usage),
        },
      ];
    case 'interrupted':
      return [
        {
          type: 'approval',
          stateId: part.interruption.state.stateId,
          pending: part.interruption.pending.map(pendingCallView),
        },
      ];
    case 'error':
      return [{ type: part.type, message: part.error.message }];
  }
}

function toolCallView(event: ToolInvoked, message: string): ToolCallView {
  const raw = event.rawArguments;
  return {
    tool: event.name,
    callId: event.callId ?? null,
    arguments: typeof raw === 'string' ? raw : raw === undefined ? '' : JSON.stringify(raw),
    outcome: event.outcome,
    message,
    images: event.media
      .filter((ref) => ref.type === 'image')
      .map((ref) => ({ hash: ref.hash, mediaType: ref.mediaType })),
  };
}

function pendingCallView(call: PendingToolCall): PendingCallView {
  const raw = call.arguments;
  return {
    callId: call.callId,
    tool: call.name,
    arguments: typeof raw === 'string' ? raw : JSON.stringify(raw),
    reason: call.reason,
  };
}

function usageView(usage: TokenUsage | undefined): UsageView {
  return { inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0 };
}

function planView(plan: Plan | undefined): PlanView | null {
  if (plan === undefined) return null;
  return {
    objective: plan.objective,
    status: plan.status,
    steps: plan.steps.map((step) => ({
      stepId: step.stepId,
      title: step.title,
      status: step.status,
    })),
  };
}
