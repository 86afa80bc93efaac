import { AccountReview, run } from '../../examples/subagent/main.js';
import { Findings } from '../../examples/subagent/researcher.js';
import { PromptExecuted } from '../../src/runtime/events/prompt-executed.js';
import { PromptRendered } from '../../src/runtime/events/prompt-rendered.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import { Session } from '../../src/session/session.js';

describe('examples/subagent', () => {
  it("should run the researcher inside the lead's tool call, in the lead's session", async () => {
    const session = new Session();
    const seen: {
      what: string;
      sessionId: string | undefined;
      evaluationId: string | undefined;
    }[] = [];
    session.dispatcher.subscribe(PromptRendered, (event) =>
      seen.push({ what: `rendered ${event.promptKey}`, ...ids(event) }),
    );
    session.dispatcher.subscribe(ToolInvoked, (event) =>
      seen.push({ what: `invoked ${event.promptKey} ${event.name}`, ...ids(event) }),
    );
    session.dispatcher.subscribe(PromptExecuted, (event) =>
      seen.push({ what: `executed ${event.promptKey}`, ...ids(event) }),
    );
    const lines: string[] = [];

    const { response, script } = await run((line) => lines.push(line), session, {});

    expect(seen.map((event) => event.what)).toEqual([
      'rendered lead',
      'rendered researcher',
      'invoked researcher search_notes',
      'invoked researcher search_notes',
      'executed researcher',
      'invoked lead delegate_research',
      'executed lead',
    ]);
    expect(new Set(seen.map((event) => event.sessionId))).toEqual(new Set([session.sessionId]));
    const lead = seen[0]?.evaluationId;
    const researcher = seen[1]?.evaluationId;
    expect(lead).not.toEqual(researcher);
    expect(seen.map((event) => event.evaluationId)).toEqual([
      lead,
      researcher,
      researcher,
      researcher,
      researcher,
      lead,
      lead,
    ]);
    expect(script?.requests.map((request) => [request.prompt.key, request.turn])).toEqual([
      ['lead', 0],
      ['researcher', 0],
      ['researcher', 1],
      ['researcher', 2],
      ['lead', 1],
    ]);

    const delegated = session
      .slice(ToolInvoked)
      .all()
      .find((event) => event.name === 'delegate_research');
    expect(delegated?.result.value).toBeInstanceOf(Findings);
    expect(delegated?.result.value).toMatchObject({ noteIds: ['n-1', 'n-2', 'n-3'] });
    expect(response.output).toBeInstanceOf(AccountReview);
    expect(response.output).toMatchObject({ atRisk: true });
    expect((response.output as AccountReview).nextSteps).toHaveLength(3);

    const output = lines.join('\n');
    expect(output).toMatch(/^ {2}▶ researcher starts .*\n {4}> search_notes /m);
    expect(output).toContain(
      '      success: Found 1 note(s): n-3.\n  ◀ researcher answered: 1180 input + 112 output tokens',
    );
    expect(output).toContain(
      '  > delegate_research {"question":"Globex: usage trend, open tickets and renewal date?"}\n' +
        '    success: The researcher found: Usage fell from 420 to 260',
    );
    expect(output).toContain('Review: at risk. Usage dropped by 38%');
    expect(output).toMatch(
      /Done: 2 evaluations \(2 requests by the lead\), 3 tool calls, 1945 input \+ 224 output tokens in one session, \d+ ms\./,
    );
  });
});

function ids(event: PromptRendered | ToolInvoked | PromptExecuted) {
  return { sessionId: event.sessionId, evaluationId: event.evaluationId };
}
