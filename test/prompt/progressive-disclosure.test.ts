import { IsString } from 'class-validator';

import {
  MarkdownSection,
  OPEN_SECTIONS_TOOL,
  Prompt,
  PromptValidationError,
  READ_SECTION_TOOL,
  SectionVisibilityOverride,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
  VisibilityExpansionRequired,
} from 'affordance';
import { InMemorySessionStore, SessionPersistence } from 'affordance/durable';
import type { ProviderRequest } from 'affordance/provider';
import { createTestRuntime, type ScriptedTurn } from 'affordance/testing';

import { catchError, catchRejection } from '../support/catch-error.js';

class OrderParams {
  @IsString() orderId!: string;
}

const tool = (name: string): ToolDefinition<OrderParams> =>
  new ToolDefinition<OrderParams>({
    name,
    description: `The ${name} tool.`,
    params: OrderParams,
    handler: (params) => ToolResult.ok(null, `${name} done for ${params.orderId}.`),
  });

function supportPrompt(disclosure?: 'in-loop' | 'raise'): Prompt {
  return new Prompt({
    ns: 'test',
    key: 'support',
    disclosure,
    sections: [
      new MarkdownSection({
        key: 'basics',
        title: 'Basics',
        template: 'Be kind.',
        tools: [tool('lookup_order')],
      }),
      new MarkdownSection({
        key: 'billing',
        title: 'Billing',
        template: 'Refund within 30 days of delivery; never refund twice.',
        summary: 'Refunds and disputes.',
        visibility: 'summary',
        tools: [tool('refund')],
        children: [
          new MarkdownSection({
            key: 'disputes',
            title: 'Disputes',
            template: 'Open a dispute only after a refund was refused.',
            tools: [tool('open_dispute')],
          }),
        ],
      }),
      new MarkdownSection({
        key: 'faq',
        title: 'FAQ',
        template: 'Shipping takes three days.',
        summary: 'Common questions.',
        visibility: 'summary',
      }),
    ],
  });
}

const names = (tools: readonly { name: string }[]): string[] => tools.map((t) => t.name);

function toolText(request: ProviderRequest | undefined): string {
  const message = [...(request?.messages ?? [])].reverse().find((m) => m.role === 'tool');
  return message?.role === 'tool' ? message.content : '';
}

describe('progressive disclosure', () => {
  it('renders a summarized section as its summary, without its subtree or tools, and offers the synthetic tools', () => {
    const rendered = supportPrompt().render();
    expect(rendered.text).toContain('Refunds and disputes.');
    expect(rendered.text).toContain('call `open_sections` with sectionKeys ["billing"]');
    expect(rendered.text).toContain('call `read_section` with sectionKey "faq"');
    expect(rendered.text).not.toContain('Refund within 30 days');
    expect(rendered.text).not.toContain('Disputes');
    expect(rendered.text).not.toContain('Shipping takes');
    expect(names(rendered.tools)).toEqual(['lookup_order', OPEN_SECTIONS_TOOL, READ_SECTION_TOOL]);
    expect(rendered.summarizedSections.map((s) => [s.path, s.hasTools])).toEqual([
      ['billing', true],
      ['faq', false],
    ]);
    expect(rendered.summarizedSection('billing')?.text()).toContain(
      'Open a dispute only after a refund was refused.',
    );
  });

  it('renders every section in full when visibility opens them', () => {
    const rendered = supportPrompt().render({ visibility: { billing: 'full', faq: 'full' } });
    expect(rendered.text).toContain('Refund within 30 days');
    expect(rendered.text).toContain('Shipping takes three days.');
    expect(names(rendered.tools)).toEqual(['lookup_order', 'refund', 'open_dispute']);
  });

  it('refuses a section summarized without a summary, when built and when rendered', () => {
    expect(
      () => new MarkdownSection({ key: 'x', title: 'X', template: 'x', visibility: 'summary' }),
    ).toThrow(/has no summary/);
    const session = new Session();
    session.dispatch(
      new SectionVisibilityOverride({ sectionPath: 'basics', visibility: 'summary' }),
    );
    const error = catchError(PromptValidationError, () => supportPrompt().render({ session }));
    expect(error.message).toContain("Section 'basics' is rendered as a summary but has no summary");
    expect(error.sectionPath).toEqual(['basics']);
  });

  it('opens a section in the loop: the model reads its text and gets its tools from the next request', async () => {
    const script: ScriptedTurn[] = [
      {
        toolCalls: [
          { name: OPEN_SECTIONS_TOOL, arguments: { sectionKeys: ['billing'], reason: 'refund' } },
        ],
      },
      { toolCalls: [{ name: 'refund', arguments: { orderId: 'o-1' } }] },
      { text: 'Refunded.' },
    ];
    const agent = createTestRuntime({ script });
    const session = new Session();
    const response = await agent.evaluate(supportPrompt(), { session });
    expect(response.text).toBe('Refunded.');
    const [first, second] = agent.adapter.requests;
    expect(names(first?.tools ?? [])).not.toContain('refund');
    expect(names(second?.tools ?? [])).toEqual(
      expect.arrayContaining(['refund', 'open_dispute', READ_SECTION_TOOL]) as unknown,
    );
    expect(names(second?.tools ?? [])).not.toContain(OPEN_SECTIONS_TOOL);
    expect(toolText(second)).toContain('Refund within 30 days');
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .map((e) => [e.name, e.outcome]),
    ).toEqual([
      [OPEN_SECTIONS_TOOL, 'success'],
      ['refund', 'success'],
    ]);
    // The opening is session state: a later render on the session shows the section in full.
    expect(supportPrompt().render({ session }).text).toContain('Refund within 30 days');
  });

  it('keeps openings through snapshot/restore and a durable session store', async () => {
    const agent = createTestRuntime({
      script: [
        { toolCalls: [{ name: OPEN_SECTIONS_TOOL, arguments: { sectionKeys: ['billing'] } }] },
        { text: 'Opened.' },
      ],
    });
    const persistence = new SessionPersistence({ store: new InMemorySessionStore() });
    const durable = await persistence.open('s-1');
    await agent.evaluate(supportPrompt(), { session: durable.session });
    await durable.commit();

    const reloaded = await persistence.open('s-1');
    expect(supportPrompt().render({ session: reloaded.session }).text).toContain(
      'Refund within 30 days',
    );
    const restored = new Session();
    restored.restore(durable.session.snapshot());
    expect(names(supportPrompt().render({ session: restored }).tools)).toContain('refund');
  });

  it('answers an unknown key with the sections that can be opened', async () => {
    const agent = createTestRuntime({
      script: [
        { toolCalls: [{ name: OPEN_SECTIONS_TOOL, arguments: { sectionKeys: ['faq', 'nope'] } }] },
        { text: 'Sorry.' },
      ],
    });
    const session = new Session();
    await agent.evaluate(supportPrompt(), { session });
    const [event] = session.slice(ToolInvoked).all();
    expect(event?.outcome).toBe('failure');
    expect(event?.result.message).toContain("'faq', 'nope'");
    expect(event?.result.message).toContain('you can open: billing');
    expect(session.slice(SectionVisibilityOverride).all()).toEqual([]);
  });

  it('reads a summarized section without tools with read_section, changing nothing', async () => {
    const agent = createTestRuntime({
      script: [
        { toolCalls: [{ name: READ_SECTION_TOOL, arguments: { sectionKey: 'faq' } }] },
        { text: 'Three days.' },
      ],
    });
    const session = new Session();
    await agent.evaluate(supportPrompt(), { session });
    expect(toolText(agent.adapter.requests[1])).toContain('Shipping takes three days.');
    expect(session.slice(SectionVisibilityOverride).all()).toEqual([]);
  });

  it("raises VisibilityExpansionRequired in 'raise' mode, state restored, for the application to re-run", async () => {
    const agent = createTestRuntime({
      script: [
        {
          toolCalls: [
            { name: 'lookup_order', arguments: { orderId: 'o-1' } },
            {
              name: OPEN_SECTIONS_TOOL,
              arguments: { sectionKeys: ['billing'], reason: 'a refund' },
            },
          ],
        },
      ],
    });
    const session = new Session();
    const error = await catchRejection(VisibilityExpansionRequired, () =>
      agent.runtime.evaluate(supportPrompt('raise'), { session }),
    );
    expect(error.sectionKeys).toEqual(['billing']);
    expect(error.reason).toBe('a refund');
    expect(error.requestedOverrides).toEqual({ billing: 'full' });
    expect(error.message).toContain(
      'Visibility expansion required for sections: billing. Reason: a refund.',
    );
    expect(session.slice(SectionVisibilityOverride).all()).toEqual([]);

    agent.adapter.push({ text: 'Done.' });
    await agent.runtime.evaluate(supportPrompt('raise'), {
      session,
      visibility: error.requestedOverrides,
    });
    expect(names(agent.adapter.requests[1]?.tools ?? [])).toContain('refund');
  });

  it('refuses a prompt tool named like a synthetic tool when a section is summarized', () => {
    const prompt = new Prompt({
      ns: 'test',
      key: 'clash',
      sections: [
        new MarkdownSection({
          key: 'a',
          title: 'A',
          template: 'a',
          tools: [tool(READ_SECTION_TOOL)],
        }),
        new MarkdownSection({
          key: 'b',
          title: 'B',
          template: 'b',
          summary: 'b',
          visibility: 'summary',
        }),
      ],
    });
    expect(() => prompt.render()).toThrow(/Rename the tool/);
  });
});
