import type { ProviderRequest } from 'affordance/provider';
import type { ScriptedTurn } from 'affordance/testing';

/** A refund a customer asks for: the order and the amount their message names. */
export interface RefundAsk {
  readonly orderId: string;
  readonly amount: number;
}

const orderPattern = /\border\s+#?([A-Z]-\d{3,6})\b/i;
const amountPattern = /\$\s?(\d{1,5}(?:\.\d{1,2})?)\b/;

/**
 * The refund `message` asks for: it mentions a refund, names an order
 * (`order A-1042`) and an amount (`$120`). `undefined` otherwise, e.g. for
 * "Can I get a refund for the invoice of last month?", which the scripted
 * model answers from the help centre.
 */
export function refundAskOf(message: string): RefundAsk | undefined {
  if (!/refund/i.test(message)) return undefined;
  const order = orderPattern.exec(message)?.[1];
  const amount = amountPattern.exec(message)?.[1];
  if (order === undefined || amount === undefined) return undefined;
  return { orderId: order.toUpperCase(), amount: Number(amount) };
}

/** The scripted model's first turn for a refund: one `refund_order` call (its answer comes from {@link refundFollowUp}). */
export function refundCallTurn(ask: RefundAsk, message: string, text: string): ScriptedTurn {
  return {
    text,
    toolCalls: [
      {
        name: 'refund_order',
        arguments: {
          orderId: ask.orderId,
          amount: ask.amount,
          reason: `Customer request: ${message}`.slice(0, 300),
        },
      },
    ],
    usage: { inputTokens: 522, outputTokens: 46 },
  };
}

/** What the scripted model read back from its `refund_order` call. */
export interface RefundOutcome {
  /** Whether the refund was issued (approved, or small enough to need no approval). */
  readonly issued: boolean;
  /** The tool's message (without its value): the refund, or why it was not issued. */
  readonly message: string;
  /** For a refund a person rejected: their message (what the model tells the customer). */
  readonly why: string;
}

/**
 * When the last message of `request` is the result of a `refund_order` call,
 * what it says; `undefined` otherwise. The scripted model writes its answer
 * from it, as a real model would read the tool message.
 */
export function refundOutcomeOf(request: ProviderRequest): RefundOutcome | undefined {
  const last = request.messages.at(-1);
  if (last?.role !== 'tool' || last.name !== 'refund_order') return undefined;
  const message = last.result.message;
  const rejected = /rejected this call of '[^']+'[.:]?\s*(.*)$/s.exec(message);
  return {
    issued: last.result.success,
    message,
    why: (rejected?.[1] ?? '').trim() || 'a person declined it',
  };
}

/**
 * The chat answer after a `refund_order` call: the refund, or that it was not
 * issued and the approver's reason.
 */
export function chatRefundAnswer(outcome: RefundOutcome): ScriptedTurn {
  const text = outcome.issued
    ? `Done: ${outcome.message} The money reaches the card that paid within 5 business days.`
    : `I could not refund that order: ${outcome.why} If you think this is a mistake, reply and I will open a ticket.`;
  return { text, usage: { inputTokens: 640, outputTokens: 58 } };
}
