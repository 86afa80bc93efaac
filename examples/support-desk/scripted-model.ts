import type { ScriptedTurn } from 'affordance/testing';

/** The customer's message. */
export const customerMessage =
  "Hi, it's Dana (dana@example.com). Since this morning our CSV export of all orders fails " +
  'with error 500, and our weekly report is due today. Can you help?';

/**
 * The model's side of the offline run, scripted: it plans, searches the help
 * centre, opens a ticket with arguments the validator rejects, corrects them,
 * marks the plan done and answers in the structured form.
 */
export const scriptedModel: readonly ScriptedTurn[] = [
  {
    text: 'Several steps here; let me plan them.',
    toolCalls: [
      {
        name: 'planning_setup_plan',
        arguments: {
          objective: "Unblock Dana's CSV export",
          initialSteps: [
            'Search the help centre for the export error',
            'File a ticket for engineering',
            'Give Dana a workaround and the ticket id',
          ],
        },
      },
    ],
    usage: { inputTokens: 1210, outputTokens: 64 },
  },
  {
    toolCalls: [
      { name: 'planning_update_step', arguments: { stepId: 1, status: 'in_progress' } },
      { name: 'search_knowledge_base', arguments: { query: 'csv export error 500' } },
    ],
    usage: { inputTokens: 1402, outputTokens: 41 },
  },
  {
    text: 'kb-412 gives a workaround for large exports, but an error 500 needs engineering.',
    toolCalls: [
      { name: 'planning_update_step', arguments: { stepId: 1, status: 'done' } },
      { name: 'planning_update_step', arguments: { stepId: 2, status: 'in_progress' } },
      {
        name: 'open_ticket',
        arguments: {
          email: 'dana at example.com',
          subject: 'CSV export',
          description: 'Export fails.',
          priority: 'critical',
        },
      },
    ],
    usage: { inputTokens: 1655, outputTokens: 88 },
  },
  {
    text: 'The ticket was rejected; fixing the email, the priority and the details.',
    toolCalls: [
      {
        name: 'open_ticket',
        arguments: {
          email: 'dana@example.com',
          subject: 'CSV export of all orders fails with error 500',
          description:
            'Since this morning the CSV export of all orders fails with error 500. ' +
            'The weekly report is due today. kb-412 (date-range exports) suggested as a workaround.',
          priority: 'urgent',
        },
      },
    ],
    usage: { inputTokens: 1890, outputTokens: 97 },
  },
  {
    toolCalls: [
      { name: 'planning_update_step', arguments: { stepId: 2, status: 'done' } },
      { name: 'planning_update_step', arguments: { stepId: 3, status: 'done' } },
    ],
    usage: { inputTokens: 2012, outputTokens: 35 },
  },
  {
    text: JSON.stringify({
      resolution: 'ticket_opened',
      ticketId: 'T-1001',
      articleIds: ['kb-412'],
      reply:
        'Sorry for the trouble, Dana. Engineering has ticket T-1001 (urgent) for the error 500. ' +
        "For today's report, export by date range of up to 90 days and merge the files (kb-412).",
    }),
    usage: { inputTokens: 2133, outputTokens: 82 },
  },
];
