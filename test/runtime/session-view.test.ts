import { IsString } from 'class-validator';

import { MarkdownSection, Prompt, Session, ToolDefinition, ToolResult } from 'affordance';
import { createTestRuntime } from 'affordance/testing';

class Params {
  @IsString() id!: string;
}

/** State the application keeps in the session. */
class Preference {
  theme!: string;
}

describe('ToolContext.sessionView', () => {
  it('reads the evaluation session and offers no way to change it', async () => {
    let seen: string | undefined;
    let canDispatch: boolean | undefined;
    const read = new ToolDefinition<Params>({
      name: 'read_theme',
      description: 'Read the theme.',
      params: Params,
      readOnly: true,
      handler: (_params, context) => {
        seen = context.sessionView.slice(Preference).latest()?.theme;
        canDispatch = 'dispatch' in context.sessionView;
        return ToolResult.ok(null, `Theme: ${seen ?? 'none'}.`);
      },
    });
    const prompt = new Prompt({
      ns: 'test',
      key: 'view',
      sections: [new MarkdownSection({ key: 's', title: 'S', template: 's', tools: [read] })],
    });
    const session = new Session();
    session.dispatch(Object.assign(new Preference(), { theme: 'dark' }));
    const agent = createTestRuntime({
      script: [{ toolCalls: [{ name: 'read_theme', arguments: { id: 'x' } }] }, { text: 'ok' }],
    });
    await agent.evaluate(prompt, { session });
    expect(seen).toBe('dark');
    expect(canDispatch).toBe(false);
  });
});
