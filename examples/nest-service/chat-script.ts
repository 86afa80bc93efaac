import type { MediaRef } from 'affordance';
import type { ScriptedTurn } from 'affordance/testing';

import { refundAskOf, refundCallTurn } from './refund-script.js';
import { REFUND_APPROVAL_LIMIT } from './refund-section.js';

/** A help-centre topic the scripted chat model recognises, and the answer it writes from it. */
interface Topic {
  readonly pattern: RegExp;
  readonly query: string;
  readonly articleId: string;
  readonly answer: string;
}

const topics: readonly Topic[] = [
  {
    pattern: /password|log ?in|sign ?in|locked/i,
    query: 'reset password',
    articleId: 'kb-101',
    answer:
      'You can reset your password yourself in a minute. Open Settings, then Security, and choose Reset password. ' +
      'We send a link to the email address on your account, and that link works for 30 minutes, so use it soon. ' +
      'If the email does not arrive, check your spam folder first, then ask again and I will open a ticket for you. ' +
      'Once you are back in, consider turning on two-step sign-in from the same Security page. ' +
      'This comes from help-centre article kb-101.',
  },
  {
    pattern: /refund|invoice|billing|charge/i,
    query: 'refund invoice',
    articleId: 'kb-204',
    answer:
      'Refunds for the last 60 days are something you can request on your own. Go to Billing, then Invoices, ' +
      'pick the invoice in question and choose Request refund. The money goes back to the card that paid it ' +
      'within 5 business days, and you get an email when it leaves our side. Older invoices need a person to look ' +
      'at them: tell me which one and I will open a ticket. This comes from help-centre article kb-204.',
  },
  {
    pattern: /invite|teammate|member|seat/i,
    query: 'invite teammate',
    articleId: 'kb-310',
    answer:
      'Admins invite teammates from Settings, then Members: enter their email addresses and pick a role for each. ' +
      'Every invitation stays valid for 7 days; after that, send a fresh one from the same page. ' +
      'If you are not an admin yourself, ask one of your admins to send it, or to make you an admin first. ' +
      'Each accepted invitation takes one seat of your plan. This comes from help-centre article kb-310.',
  },
];

const ticketAnswer =
  'I could not find an article that solves this, so I filed a ticket with our engineers; its number is in the ' +
  'open_ticket card above. They read every ticket the same day and will email you as soon as they know more. ' +
  'If you can, reply to that email with the time it last worked and any error message you saw: it helps them ' +
  'find the cause faster. Until then, nothing else is needed from you.';

const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens });

/**
 * What the scripted chat model does with a message and the files attached to
 * it: it first says what it sees in each file (media type and size, as the
 * request carried them). For a question about storage use, it shows the
 * usage chart (a tool answering with an image) and reads it. For a refund request
 * naming an order and an amount, call `refund_order` (above the approval
 * limit the evaluation pauses until a person decides; the answer follows the
 * call, see `OfflineSupportModel`). Otherwise plan, search the
 * knowledge base and, for a known topic, check the article and answer from
 * it; for anything else, file a ticket and say so. The plan is updated at
 * every step and completed before the answer, which streams word by word.
 */
export function chatScriptFor(
  message: string,
  attachments: readonly MediaRef[] = [],
): ScriptedTurn[] {
  const script = chatTurnsFor(message);
  const seen = attachments.map(describeAttachment).join(' ');
  if (seen === '' || script[0] === undefined) return script;
  // What a model that reads media would say first: what it was shown.
  return [{ ...script[0], text: `${seen} ${script[0].text ?? ''}`.trim() }, ...script.slice(1)];
}

/** What the scripted model says it sees in a file the customer attached. */
function describeAttachment(ref: MediaRef): string {
  const what = ref.type === 'image' ? 'the image' : 'the document';
  const name = ref.filename === undefined ? '' : ` ${ref.filename}`;
  return `I can see ${what}${name} you attached (${ref.mediaType}, ${ref.size} bytes).`;
}

/** The usage chart: show it, then read it. */
function usageTurns(): ScriptedTurn[] {
  return [
    {
      text: 'Let me draw your storage use.',
      toolCalls: [{ name: 'show_usage_chart', arguments: { months: 6 } }],
      usage: usage(640, 30),
    },
    {
      text:
        'Here is your storage use over the last six months. It has grown steadily and is now at 400 GiB of your ' +
        '500 GiB plan, so you have about a fifth left. At this pace you would reach the limit in two to three ' +
        'months; removing old backups or moving to the next plan avoids that.',
      usage: usage(980, 64),
    },
  ];
}

function chatTurnsFor(message: string): ScriptedTurn[] {
  if (/usage|chart|storage/i.test(message)) return usageTurns();
  const refund = refundAskOf(message);
  if (refund !== undefined) {
    const text =
      refund.amount > REFUND_APPROVAL_LIMIT
        ? `I can refund order ${refund.orderId}. Refunds above $${REFUND_APPROVAL_LIMIT} need a person's approval first, so I am asking for it.`
        : `I can refund order ${refund.orderId} right away.`;
    return [refundCallTurn(refund, message, text)];
  }
  const topic = topics.find((entry) => entry.pattern.test(message));
  const secondStep = topic === undefined ? 'File a ticket for the engineers' : 'Check the article';
  const search = topic?.query ?? keywords(message);
  return [
    {
      text: 'Let me plan this first.',
      toolCalls: [
        {
          name: 'planning_setup_plan',
          arguments: {
            objective: `Help the customer: ${message.slice(0, 120)}`,
            initialSteps: ['Search the help centre', secondStep],
          },
        },
      ],
      usage: usage(612, 48),
    },
    {
      text: 'Searching the help centre.',
      toolCalls: [
        { name: 'planning_update_step', arguments: { stepId: 1, status: 'in_progress' } },
        { name: 'search_knowledge_base', arguments: { query: search } },
      ],
      usage: usage(744, 41),
    },
    topic === undefined ? ticketTurn(message) : checkTurn(topic),
    {
      text: topic === undefined ? 'The ticket is filed.' : 'The article answers it.',
      toolCalls: [{ name: 'planning_update_step', arguments: { stepId: 2, status: 'done' } }],
      usage: usage(1003, 22),
    },
    { text: topic?.answer ?? ticketAnswer, usage: usage(1121, 118) },
  ];
}

function checkTurn(topic: Topic): ScriptedTurn {
  return {
    text: `Found ${topic.articleId}; checking it against your question.`,
    toolCalls: [
      { name: 'planning_update_step', arguments: { stepId: 1, status: 'done' } },
      { name: 'planning_update_step', arguments: { stepId: 2, status: 'in_progress' } },
    ],
    usage: usage(896, 35),
  };
}

function ticketTurn(message: string): ScriptedTurn {
  return {
    text: 'No article covers this, so I will file a ticket.',
    toolCalls: [
      { name: 'planning_update_step', arguments: { stepId: 1, status: 'done' } },
      { name: 'planning_update_step', arguments: { stepId: 2, status: 'in_progress' } },
      {
        name: 'open_ticket',
        arguments: { summary: `Reported in the chat: ${message}`.slice(0, 500), priority: 'high' },
      },
    ],
    usage: usage(902, 57),
  };
}

const stopWords = new Set([
  'the',
  'and',
  'for',
  'that',
  'this',
  'with',
  'since',
  'from',
  'when',
  'what',
  'have',
  'morning',
]);

/** The first few meaningful words of a message, as a model would search them. */
function keywords(message: string): string {
  const words = message.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const picked = words.filter((word) => word.length >= 3 && !stopWords.has(word)).slice(0, 4);
  return picked.length === 0 ? 'help' : picked.join(' ');
}
