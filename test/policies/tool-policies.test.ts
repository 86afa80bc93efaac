import { IsString } from 'class-validator';
import { inject } from 'inversify';

import {
  MarkdownSection,
  type PolicyCall,
  PolicyDecision,
  Prompt,
  Section,
  Session,
  Tool,
  type ToolContext,
  ToolDefinition,
  ToolInvoked,
  type ToolPolicy,
  ToolResult,
} from 'affordance';
import { createTestRuntime, type ScriptedTurn } from 'affordance/testing';

import { toolMessages } from '../support/conversation.js';

class NoteParams {
  @IsString() text!: string;
}

/** A STATE slice: what wrote to the session, handler or policy. */
class NoteWritten {
  constructor(readonly by: string) {}
}

/** Notes every handler run, so a test sees whether a handler ran. */
const handlerRuns: string[] = [];

function noteTool(policies: ToolPolicy[] = [], name = 'write_note'): ToolDefinition<NoteParams> {
  return new ToolDefinition({
    name,
    description: 'Write a note.',
    params: NoteParams,
    policies,
    handler: (params, context) => {
      handlerRuns.push(params.text);
      context.session.dispatch(new NoteWritten('handler'));
      return ToolResult.ok(null, `Wrote ${params.text}.`);
    },
  });
}

function notesPrompt(tools: ToolDefinition[], policies: ToolPolicy[] = []): Prompt {
  return new Prompt({
    ns: 'tests',
    key: 'policies',
    policies,
    sections: [new MarkdownSection({ key: 'notes', title: 'Notes', template: 'Notes.', tools })],
  });
}

const writeCall = (text: string, name = 'write_note'): ScriptedTurn => ({
  toolCalls: [{ callId: `c-${text}`, name, arguments: { text } }],
});

const refuse = (name: string, reason: string): ToolPolicy => ({
  name,
  check: () => PolicyDecision.deny(reason, 'Ask a person.'),
});

beforeEach(() => {
  handlerRuns.length = 0;
});

describe('a denied call, through the runtime', () => {
  it('fails with the reason the model reads next, is recorded as denied and never runs its handler', async () => {
    const { adapter, evaluate } = createTestRuntime({
      script: [writeCall('secret'), { text: 'Understood.' }],
    });
    const session = new Session();
    const response = await evaluate(
      notesPrompt([noteTool([refuse('no_secrets', 'Notes may not say secret.')])]),
      { session },
    );

    const expected =
      "Policy 'no_secrets' denied this call of 'write_note': Notes may not say secret. To proceed: Ask a person.";
    expect(response.toolCalls[0]?.message).toBe(expected);
    expect(toolMessages(adapter.requests[1])).toEqual([['c-secret', expected]]);
    expect(response.toolCalls[0]?.result.success).toBe(false);
    expect(
      session.view
        .slice(ToolInvoked)
        .all()
        .map((event) => event.outcome),
    ).toEqual(['denied']);
    expect(handlerRuns).toEqual([]);
    expect(session.view.slice(NoteWritten).all()).toEqual([]);
  });

  it('undoes what a denying policy wrote to the session in check()', async () => {
    const scribbler: ToolPolicy = {
      name: 'scribbler',
      check: ({ context }) => {
        context.session.dispatch(new NoteWritten('scribbler'));
        expect(context.session.view.slice(NoteWritten).size).toBe(1);
        return PolicyDecision.deny('Scribbled, then said no.');
      },
    };
    const { evaluate } = createTestRuntime({ script: [writeCall('a'), { text: 'Done.' }] });
    const session = new Session();
    const response = await evaluate(notesPrompt([noteTool([scribbler])]), { session });

    expect(response.toolCalls[0]?.event.outcome).toBe('denied');
    expect(session.view.slice(NoteWritten).all()).toEqual([]);
  });

  it('keeps what an allowing policy wrote, with the handler’s own write', async () => {
    const witness: ToolPolicy = {
      name: 'witness',
      check: ({ context }) => {
        context.session.dispatch(new NoteWritten('witness'));
        return PolicyDecision.allow();
      },
    };
    const { evaluate } = createTestRuntime({ script: [writeCall('a'), { text: 'Done.' }] });
    const session = new Session();
    await evaluate(notesPrompt([noteTool([witness])]), { session });

    expect(
      session.view
        .slice(NoteWritten)
        .all()
        .map((note) => note.by),
    ).toEqual(['witness', 'handler']);
  });

  it('denies the call, with the error in the message, when a policy throws', async () => {
    const broken: ToolPolicy = {
      name: 'broken',
      check: () => {
        throw new Error('rules service unreachable');
      },
    };
    const { adapter, evaluate } = createTestRuntime({
      script: [writeCall('a'), { text: 'Done.' }],
    });
    const response = await evaluate(notesPrompt([noteTool([broken])]));

    const message = response.toolCalls[0]?.message;
    expect(message).toMatch(
      /^Policy 'broken' could not check this call of 'write_note', so it was refused: .*rules service unreachable/,
    );
    expect(toolMessages(adapter.requests[1])).toEqual([['c-a', message]]);
    expect(response.toolCalls[0]?.event.outcome).toBe('denied');
    expect(handlerRuns).toEqual([]);
  });
});

/** A service the application binds; the policy class below injects it. */
class Blocklist {
  constructor(readonly words: readonly string[]) {}
}

/** A policy declared as a class: resolved from the call's container, with its service injected. */
class BlocklistPolicy implements ToolPolicy {
  readonly name = 'blocklist';

  constructor(@inject(Blocklist) private readonly blocklist: Blocklist) {}

  check({ params }: PolicyCall): PolicyDecision {
    const { text } = params as NoteParams;
    return this.blocklist.words.includes(text)
      ? PolicyDecision.deny(`'${text}' is on the blocklist.`)
      : PolicyDecision.allow();
  }
}

describe('a policy class with an injected service', () => {
  it('is resolved from the container and decides with the bound service', async () => {
    const { evaluate } = createTestRuntime({
      script: [writeCall('fine'), writeCall('forbidden'), { text: 'Done.' }],
      configure: (container) => {
        container.bind(Blocklist).toConstantValue(new Blocklist(['forbidden']));
      },
    });
    const prompt = new Prompt({
      ns: 'tests',
      key: 'class-policy',
      policies: [BlocklistPolicy],
      sections: [
        new MarkdownSection({ key: 'notes', title: 'Notes', template: 'N.', tools: [noteTool()] }),
      ],
    });
    const response = await evaluate(prompt);

    expect(response.toolCalls.map((call) => [call.event.outcome, call.message])).toEqual([
      ['success', 'Wrote fine.'],
      [
        'denied',
        "Policy 'blocklist' denied this call of 'write_note': 'forbidden' is on the blocklist.",
      ],
    ]);
    expect(handlerRuns).toEqual(['fine']);
  });
});

/** Records the order policies were asked in; `deny` names the one that refuses. */
function askLog(deny?: string): { asked: string[]; policy(name: string): ToolPolicy } {
  const asked: string[] = [];
  return {
    asked,
    policy: (name) => ({
      name,
      check: () => {
        asked.push(name);
        return name === deny ? PolicyDecision.deny(`${name} refuses.`) : PolicyDecision.allow();
      },
    }),
  };
}

/** A decorated section whose tool and section each carry a policy of `log`. */
function decoratedSection(log: ReturnType<typeof askLog>): new () => object {
  @Section({ key: 'journal', title: 'Journal', template: 'J.', policies: [log.policy('section')] })
  class JournalSection {
    @Tool({ name: 'add_entry', description: 'Add an entry.', policies: [log.policy('tool')] })
    add(params: NoteParams, _context: ToolContext): ToolResult<null> {
      handlerRuns.push(params.text);
      return ToolResult.ok(null, 'Added.');
    }
  }
  return JournalSection;
}

describe('composed policies', () => {
  it('are asked in order tool, section (innermost first), prompt when all allow', async () => {
    const log = askLog();
    const prompt = new Prompt({
      ns: 'tests',
      key: 'order',
      policies: [log.policy('prompt')],
      sections: [
        new MarkdownSection({
          key: 'outer',
          title: 'Outer',
          template: 'O.',
          policies: [log.policy('outer')],
          children: [decoratedSection(log)],
        }),
      ],
    });
    const { evaluate } = createTestRuntime({
      script: [writeCall('x', 'add_entry'), { text: 'Done.' }],
    });
    const response = await evaluate(prompt);

    expect(log.asked).toEqual(['tool', 'section', 'outer', 'prompt']);
    expect(response.toolCalls[0]?.event.outcome).toBe('success');
    expect(handlerRuns).toEqual(['x']);
  });

  it.each([
    ['tool', ['tool']],
    ['section', ['tool', 'section']],
    ['prompt', ['tool', 'section', 'prompt']],
  ])('stop at the first denial (%s): later policies are not asked', async (denier, asked) => {
    const log = askLog(denier);
    const prompt = new Prompt({
      ns: 'tests',
      key: 'first-denial',
      policies: [log.policy('prompt')],
      sections: [decoratedSection(log)],
    });
    const { evaluate } = createTestRuntime({
      script: [writeCall('x', 'add_entry'), { text: 'Done.' }],
    });
    const response = await evaluate(prompt);

    expect(log.asked).toEqual(asked);
    expect(response.toolCalls[0]?.message).toBe(
      `Policy '${denier}' denied this call of 'add_entry': ${denier} refuses.`,
    );
    expect(handlerRuns).toEqual([]);
  });

  it('apply only to the tools they are declared for', async () => {
    const prompt = notesPrompt([
      noteTool([refuse('closed', 'This tool is closed.')], 'closed_note'),
      noteTool([], 'open_note'),
    ]);
    const { evaluate } = createTestRuntime({
      script: [writeCall('a', 'closed_note'), writeCall('b', 'open_note'), { text: 'Done.' }],
    });
    const response = await evaluate(prompt);

    expect(response.toolCalls.map((call) => call.event.outcome)).toEqual(['denied', 'success']);
    expect(handlerRuns).toEqual(['b']);
  });
});
