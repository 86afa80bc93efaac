import { MarkdownSection, Prompt, type ToolDefinition } from 'affordance';

/** One unit of committed work: a note a tool wrote into the session. */
export class Note {
  constructor(readonly text: string) {}
}

/** A prompt `hardening/<key>` with one section offering `tools`. */
export function workPrompt(key: string, tools: ToolDefinition[]): Prompt {
  return new Prompt({
    ns: 'hardening',
    key,
    sections: [new MarkdownSection({ key: 'work', title: 'Work', template: 'Work.', tools })],
  });
}
