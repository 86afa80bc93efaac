import { contentText, Media, type MediaRef, mediaParts } from 'affordance';
import {
  providerCapabilities,
  ProviderAdapter,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderStreamPart,
  type ProviderTurn,
} from 'affordance/provider';
import { ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

import { chatPrompt } from './chat-prompt.js';
import { chatScriptFor } from './chat-script.js';
import {
  chatRefundAnswer,
  refundAskOf,
  refundCallTurn,
  type RefundOutcome,
  refundOutcomeOf,
} from './refund-script.js';

/** The JSON the scripted model answers with; the runtime parses it into a `SupportReply`. */
interface ReplyJson {
  readonly resolution: 'answered' | 'ticket_opened' | 'refunded' | 'refund_declined';
  readonly reply: string;
  readonly articleIds: readonly string[];
}

/** Options of {@link OfflineSupportModel}. */
export interface OfflineModelOptions {
  /** Milliseconds before each streamed word or argument piece (40 by default), so a page sees text grow. */
  readonly deltaDelayMs?: number;
}

/**
 * The model's side of the offline run. A server answers many customers at
 * once, so each conversation gets its own `ScriptedAdapter`, scripted from
 * the customer's message by {@link scriptFor} (`POST /agent`) or
 * {@link chatScriptFor} (the chat prompt); conversations never take each
 * other's turns. It streams as `ScriptedAdapter` does, a word at a time.
 * A conversation that paused for approval keeps its script: the resumed
 * evaluation has the same id and goes on with it. After a `refund_order`
 * call the model writes its answer from what the call returned (the refund,
 * or the approver's reason for rejecting it).
 */
export class OfflineSupportModel extends ProviderAdapter {
  override readonly name: string = 'scripted';
  override readonly capabilities: ProviderCapabilities = providerCapabilities({ streaming: true });
  readonly #conversations = new Map<string, ScriptedAdapter>();
  readonly #deltaDelayMs: number;

  constructor(options: OfflineModelOptions = {}) {
    super();
    this.#deltaDelayMs = options.deltaDelayMs ?? 40;
  }

  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    const script = this.#conversation(request);
    const turn = await script.request(request);
    if ((turn.toolCalls ?? []).length === 0) this.#end(request, script);
    return turn;
  }

  override async *stream(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderStreamPart, void, undefined> {
    const script = this.#conversation(request);
    // A conversation ends with a turn without tool calls, or when its stream fails or is cancelled.
    let ended = true;
    try {
      for await (const part of script.stream(request)) {
        if (part.type === 'turn') ended = (part.turn.toolCalls ?? []).length === 0;
        yield part;
      }
      if (ended) script.assertDone();
    } finally {
      if (ended) this.#conversations.delete(request.evaluationId);
    }
  }

  #conversation(request: ProviderRequest): ScriptedAdapter {
    let script = this.#conversations.get(request.evaluationId);
    if (script === undefined) {
      const message = customerMessage(request);
      const turns = isChat(request)
        ? chatScriptFor(message, attachmentsOf(request))
        : scriptFor(message);
      script = new ScriptedAdapter(turns, {
        deltaDelayMs: this.#deltaDelayMs,
      });
      this.#conversations.set(request.evaluationId, script);
    }
    const refund = script.remaining === 0 ? refundOutcomeOf(request) : undefined;
    if (refund !== undefined)
      script.push(isChat(request) ? chatRefundAnswer(refund) : refundAnswer(refund));
    return script;
  }

  #end(request: ProviderRequest, script: ScriptedAdapter): void {
    this.#conversations.delete(request.evaluationId);
    script.assertDone();
  }
}

/**
 * What the scripted model does with a message: refund the order a refund
 * request names (`Please refund order A-1042, $120`); answer password and
 * billing questions from the knowledge base; add the note a message asks for
 * (`Please add a note to T-1001: ...`, a first attempt too short for the
 * schema, then the note); for anything else, search, open
 * a ticket (a first attempt the validator rejects, then a valid one) and say so.
 */
export function scriptFor(message: string): ScriptedTurn[] {
  const refund = refundAskOf(message);
  if (refund !== undefined) {
    return [refundCallTurn(refund, message, 'I will refund that order for you.')];
  }
  const note = /add a note to (T-\d+): (.+)$/i.exec(message);
  if (note !== null) return noteTurns(note[1] ?? '', note[2] ?? '');
  if (/password|log ?in|sign ?in|locked/i.test(message)) {
    return answerFrom('reset password', {
      resolution: 'answered',
      reply:
        'You can reset it from Settings > Security > Reset password; the link we email works for 30 minutes (kb-101).',
      articleIds: ['kb-101'],
    });
  }
  if (/refund|invoice|billing|charge/i.test(message)) {
    return answerFrom('refund invoice', {
      resolution: 'answered',
      reply:
        'Request it from Billing > Invoices > Request refund; refunds for the last 60 days arrive within 5 business days (kb-204).',
      articleIds: ['kb-204'],
    });
  }
  return [
    {
      text: 'Let me check the help centre first.',
      toolCalls: [{ name: 'search_knowledge_base', arguments: { query: keywords(message) } }],
      usage: { inputTokens: 421, outputTokens: 31 },
    },
    {
      toolCalls: [
        { name: 'open_ticket', arguments: { summary: 'Export broken', priority: 'urgent' } },
      ],
      usage: { inputTokens: 503, outputTokens: 27 },
    },
    {
      toolCalls: [
        { name: 'open_ticket', arguments: { summary: message.slice(0, 500), priority: 'high' } },
      ],
      usage: { inputTokens: 611, outputTokens: 44 },
    },
    {
      text: JSON.stringify({
        resolution: 'ticket_opened',
        reply:
          'I could not find a fix in the help centre, so I filed a ticket with our engineers; they will email you as soon as it moves.',
        articleIds: [],
      } satisfies ReplyJson),
      usage: { inputTokens: 702, outputTokens: 52 },
    },
  ];
}

/** The structured answer after a `refund_order` call. */
function refundAnswer(outcome: RefundOutcome): ScriptedTurn {
  const reply: ReplyJson = outcome.issued
    ? {
        resolution: 'refunded',
        reply: `${outcome.message} The money reaches the card that paid within 5 business days.`,
        articleIds: [],
      }
    : {
        resolution: 'refund_declined',
        reply: `The refund was not issued: ${outcome.why}`,
        articleIds: [],
      };
  return { text: JSON.stringify(reply), usage: { inputTokens: 655, outputTokens: 49 } };
}

/** A note for a ticket: a first attempt the schema rejects (too short), then the note as asked. */
function noteTurns(ticketId: string, note: string): ScriptedTurn[] {
  return [
    {
      toolCalls: [{ name: 'add_ticket_note', arguments: { ticketId, note: 'ok' } }],
      usage: { inputTokens: 430, outputTokens: 22 },
    },
    {
      toolCalls: [{ name: 'add_ticket_note', arguments: { ticketId, note } }],
      usage: { inputTokens: 512, outputTokens: 35 },
    },
    {
      text: JSON.stringify({
        resolution: 'answered',
        reply: `I added your note to ${ticketId}.`,
        articleIds: [],
      } satisfies ReplyJson),
      usage: { inputTokens: 570, outputTokens: 28 },
    },
  ];
}

function answerFrom(query: string, reply: ReplyJson): ScriptedTurn[] {
  return [
    {
      text: 'Let me check the help centre.',
      toolCalls: [{ name: 'search_knowledge_base', arguments: { query } }],
      usage: { inputTokens: 418, outputTokens: 26 },
    },
    { text: JSON.stringify(reply), usage: { inputTokens: 590, outputTokens: 61 } },
  ];
}

const stopWords = new Set(['the', 'and', 'for', 'with', 'since', 'this', 'that', 'from', 'today']);

/** The first few meaningful words of a message, as a model would search them. */
function keywords(message: string): string {
  const words = message.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return words
    .filter((word) => word.length >= 3 && !stopWords.has(word))
    .slice(0, 4)
    .join(' ');
}

function isChat(request: ProviderRequest): boolean {
  return request.prompt.ns === chatPrompt.ns && request.prompt.key === chatPrompt.key;
}

function customerMessage(request: ProviderRequest): string {
  const message = request.messages.find((entry) => entry.role === 'user');
  return message?.role === 'user' ? contentText(message.content) : '';
}

/** The files of the customer's message, as the request carried them to the model. */
function attachmentsOf(request: ProviderRequest): MediaRef[] {
  const message = request.messages.find((entry) => entry.role === 'user');
  return message?.role === 'user' ? mediaParts(message.content).map((part) => Media.ref(part)) : [];
}
