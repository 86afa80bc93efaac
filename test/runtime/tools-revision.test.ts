/**
 * A section whose tools change during an evaluation (as an MCP server's list
 * does): the runtime offers the new list from the next request on, and keeps
 * the old one when the new list would hold two tools of one name.
 */
import { Container } from 'inversify';

import {
  installAffordance,
  MarkdownSection,
  Prompt,
  Session,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { ScriptedAdapter } from 'affordance/testing';

function tool(name: string, onCall: () => void = () => undefined): ToolDefinition {
  return new ToolDefinition({
    name,
    description: `The ${name} tool.`,
    handler: () => {
      onCall();
      return ToolResult.ok(null, `${name} ran.`);
    },
  });
}

/** A section whose tools a test replaces; its `toolsRevision` grows with each replacement. */
class ChangingSection extends MarkdownSection {
  #tools: readonly ToolDefinition[];
  #revision = 0;

  constructor(key: string, tools: readonly ToolDefinition[]) {
    super({ key, title: key, template: `The ${key} tools.` });
    this.#tools = tools;
    Object.defineProperty(this, 'tools', { get: () => this.#tools });
  }

  override get toolsRevision(): number {
    return this.#revision;
  }

  replace(tools: readonly ToolDefinition[]): void {
    this.#tools = tools;
    this.#revision += 1;
  }
}

describe('tools that change during an evaluation', () => {
  it('are offered from the next request on, and called', async () => {
    const changing = new ChangingSection('lab', []);
    changing.replace([
      tool('unlock', () => {
        changing.replace([tool('unlock'), tool('probe')]);
      }),
    ]);
    const prompt = new Prompt({ ns: 'test', key: 'lab', sections: [changing] });
    const adapter = new ScriptedAdapter([
      { toolCalls: [{ name: 'unlock' }] },
      { toolCalls: [{ name: 'probe' }] },
      { text: 'done' },
    ]);
    const session = new Session();

    await installAffordance(new Container()).evaluate(prompt, { adapter, session });

    expect(adapter.requests.map((request) => request.tools.map((spec) => spec.name))).toEqual([
      ['unlock'],
      ['unlock', 'probe'],
      ['unlock', 'probe'],
    ]);
    expect(
      session
        .slice(ToolInvoked)
        .all()
        .map((event) => [event.name, event.outcome]),
    ).toEqual([
      ['unlock', 'success'],
      ['probe', 'success'],
    ]);
  });

  it("keeps the tools it had when the new list repeats another section's tool name", async () => {
    const changing = new ChangingSection('lab', [
      tool('unlock', () => {
        changing.replace([tool('unlock'), tool('status')]);
      }),
    ]);
    const prompt = new Prompt({
      ns: 'test',
      key: 'lab-clash',
      sections: [
        changing,
        new MarkdownSection({ key: 'desk', title: 'Desk', tools: [tool('status')] }),
      ],
    });
    const adapter = new ScriptedAdapter([{ toolCalls: [{ name: 'unlock' }] }, { text: 'done' }]);

    await installAffordance(new Container()).evaluate(prompt, { adapter });

    expect(adapter.requests.map((request) => request.tools.map((spec) => spec.name))).toEqual([
      ['unlock', 'status'],
      ['unlock', 'status'],
    ]);
  });
});
