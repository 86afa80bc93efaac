import type { EvalCase } from 'affordance/evals';
import type { ScriptedTurn } from 'affordance/testing';

/** A question the help centre answers: the article that solves it. */
interface Answerable {
  readonly id: string;
  readonly message: string;
  readonly query: string;
  readonly article: string;
  /** The hasty model skips the search and answers from memory. */
  readonly hastyGuesses?: boolean;
  /** The careful model opens a ticket it did not need (a case the hasty prompt improves). */
  readonly carefulOverdoes?: boolean;
}

/** A problem that needs engineering: the ticket the agent should open. */
interface NeedsTicket {
  readonly id: string;
  readonly message: string;
  readonly query: string;
  readonly email: string;
  readonly subject: string;
  readonly urgent: boolean;
  /** The hasty model answers without opening the ticket. */
  readonly hastySkipsTicket?: boolean;
}

const answerable: readonly Answerable[] = [
  {
    id: 'password-reset',
    message: 'How do I reset my password?',
    query: 'reset password',
    article: 'kb-101',
  },
  {
    id: 'locked-out',
    message: 'I am locked out of my account after too many tries.',
    query: 'locked login',
    article: 'kb-101',
    hastyGuesses: true,
  },
  {
    id: 'reset-link-expired',
    message: 'The password reset link says it expired.',
    query: 'password reset link',
    article: 'kb-101',
  },
  {
    id: 'login-loop',
    message: 'Login keeps sending me back to the login page.',
    query: 'login',
    article: 'kb-101',
    hastyGuesses: true,
  },
  {
    id: 'refund-request',
    message: 'Can I get a refund for last month?',
    query: 'refund',
    article: 'kb-204',
  },
  {
    id: 'invoice-copy',
    message: 'Where do I find my invoices?',
    query: 'invoice',
    article: 'kb-204',
  },
  {
    id: 'double-charge',
    message: 'I was charged twice this month.',
    query: 'charge billing',
    article: 'kb-204',
    carefulOverdoes: true,
  },
  {
    id: 'refund-old-order',
    message: 'Can I still get a refund for an order from 50 days ago?',
    query: 'refund',
    article: 'kb-204',
    hastyGuesses: true,
  },
  {
    id: 'csv-timeout',
    message: 'My CSV export times out.',
    query: 'csv export timeout',
    article: 'kb-412',
  },
  {
    id: 'big-report',
    message: 'The yearly report export never finishes.',
    query: 'export report',
    article: 'kb-412',
  },
  {
    id: 'export-rows',
    message: 'Exporting 500,000 rows fails, what can I do?',
    query: 'export rows',
    article: 'kb-412',
  },
  {
    id: 'billing-page',
    message: 'Where is the billing page?',
    query: 'billing',
    article: 'kb-204',
  },
];

const needsTicket: readonly NeedsTicket[] = [
  {
    id: 'api-500',
    message: 'Every call to your API returns error 500 since 9:00, we are down.',
    query: 'api error 500',
    email: 'ops@example.com',
    subject: 'API returns error 500 on every call',
    urgent: true,
    hastySkipsTicket: true,
  },
  {
    id: 'webhook-missing',
    message: 'Webhooks stopped arriving yesterday.',
    query: 'webhooks',
    email: 'dev@example.com',
    subject: 'Webhooks stopped arriving',
    urgent: false,
  },
  {
    id: 'sso-broken',
    message: 'Our SSO login fails with a SAML error for everyone.',
    query: 'sso saml',
    email: 'it@example.com',
    subject: 'SSO fails with a SAML error',
    urgent: true,
    hastySkipsTicket: true,
  },
  {
    id: 'data-missing',
    message: 'Half of our dashboards show no data since the upgrade.',
    query: 'dashboards no data',
    email: 'bi@example.com',
    subject: 'Dashboards show no data after upgrade',
    urgent: false,
  },
  {
    id: 'slow-search',
    message: 'Search takes 30 seconds on our workspace.',
    query: 'slow search',
    email: 'lee@example.com',
    subject: 'Workspace search takes 30 seconds',
    urgent: false,
    hastySkipsTicket: true,
  },
  {
    id: 'mobile-crash',
    message: 'The mobile app crashes on start since the update.',
    query: 'mobile crash',
    email: 'kim@example.com',
    subject: 'Mobile app crashes on start',
    urgent: false,
  },
  {
    id: 'invite-fails',
    message: 'Inviting new team members fails with "quota exceeded" though we have free seats.',
    query: 'invite quota',
    email: 'admin@example.com',
    subject: 'Invites fail with quota exceeded',
    urgent: false,
  },
  {
    id: 'angry-outage',
    message: 'This is the third outage this week and we lose money! Fix it!',
    query: 'outage',
    email: 'cto@example.com',
    subject: 'Third outage this week',
    urgent: true,
  },
];

/** The id of the case the LLM judge grades too (the suite adds the judge to it). */
export const JUDGED_CASE = 'angry-outage';

const usage = { inputTokens: 900, outputTokens: 40 };

function search(query: string): ScriptedTurn {
  return { toolCalls: [{ name: 'search_knowledge_base', arguments: { query } }], usage };
}

function answer(fields: Record<string, unknown>): ScriptedTurn {
  return { text: JSON.stringify(fields), usage: { inputTokens: 1100, outputTokens: 80 } };
}

function openTicket(entry: NeedsTicket): ScriptedTurn {
  const description = `${entry.message} Reported by ${entry.email}; the help centre has no article on it.`;
  const args = {
    email: entry.email,
    subject: entry.subject,
    description,
    priority: entry.urgent ? 'urgent' : 'normal',
  };
  return { toolCalls: [{ name: 'open_ticket', arguments: args }], usage };
}

function answerableCase(entry: Answerable): EvalCase {
  const reply = `Here is how: see article ${entry.article}.`;
  const solved = answer({ resolution: 'answered', articleIds: [entry.article], reply });
  const careful =
    entry.carefulOverdoes === true
      ? [
          search(entry.query),
          openTicket({
            ...entry,
            email: 'customer@example.com',
            subject: 'Customer was charged twice',
            urgent: false,
          }),
          answer({
            resolution: 'ticket_opened',
            ticketId: 'T-1001',
            articleIds: [entry.article],
            reply,
          }),
        ]
      : [search(entry.query), solved];
  const hasty =
    entry.hastyGuesses === true
      ? [
          answer({
            resolution: 'answered',
            articleIds: [],
            reply: 'Try again later, it usually fixes itself.',
          }),
        ]
      : [search(entry.query), solved];
  return {
    id: entry.id,
    input: entry.message,
    tags: ['answerable', entry.article],
    expected: {
      calls: [{ tool: 'search_knowledge_base' }],
      notCalled: ['open_ticket'],
      output: { resolution: 'answered', 'articleIds.0': entry.article },
      maxTurns: 3,
    },
    data: { careful, hasty },
  };
}

function ticketCase(entry: NeedsTicket): EvalCase {
  const apology = entry.id === JUDGED_CASE ? 'We are sorry for the outages. ' : '';
  const careful = [
    search(entry.query),
    openTicket(entry),
    answer({
      resolution: 'ticket_opened',
      ticketId: 'T-1001',
      articleIds: [],
      reply: `${apology}Engineering has ticket T-1001 and will write to ${entry.email}.`,
    }),
  ];
  const hasty =
    entry.hastySkipsTicket === true
      ? [
          search(entry.query),
          answer({ resolution: 'answered', articleIds: [], reply: 'Please try again in an hour.' }),
        ]
      : entry.id === JUDGED_CASE
        ? [
            search(entry.query),
            openTicket(entry),
            answer({
              resolution: 'ticket_opened',
              ticketId: 'T-1001',
              articleIds: [],
              reply: 'Ticket T-1001.',
            }),
          ]
        : careful;
  return {
    id: entry.id,
    input: entry.message,
    tags: ['ticket', entry.urgent ? 'urgent' : 'normal'],
    expected: {
      calls: [
        { tool: 'search_knowledge_base' },
        {
          tool: 'open_ticket',
          arguments: { email: entry.email, priority: entry.urgent ? 'urgent' : 'normal' },
        },
      ],
      output: { resolution: 'ticket_opened', ticketId: 'T-1001' },
      matches: 'T-\\d{4}',
      maxCalls: 3,
    },
    data: { careful, hasty },
  };
}

/** The 20 cases of the support-desk suite, each with its careful and hasty scripts in `data`. */
export const supportCases: readonly EvalCase[] = [
  ...answerable.map(answerableCase),
  ...needsTicket.map(ticketCase),
];
