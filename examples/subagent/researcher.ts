import { ArrayMinSize, IsArray, IsOptional, IsString, MinLength } from 'class-validator';
import { inject } from 'inversify';

import { Describe, Prompt, Section, Tool, type ToolContext, ToolResult } from 'affordance';

import { AccountNotes, Note } from './account-notes.js';

/** Arguments of `search_notes`. */
export class SearchNotesParams {
  @Describe('The account name, e.g. Globex')
  @IsString()
  @MinLength(2)
  account!: string;

  @Describe('Words the notes must mention (any of them); all notes when left out')
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  keywords?: string[];
}

/** What the researcher hands back to the agent that delegated to it. */
export class Findings {
  @Describe('Two or three sentences answering the question')
  @IsString()
  summary!: string;

  @Describe('Ids of the notes the summary relies on')
  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  noteIds!: string[];

  /** What the delegating model reads. */
  render(): string {
    return `${this.summary} (notes: ${this.noteIds.join(', ')})`;
  }
}

/** The researcher sub-agent: searches the CRM notes and reports findings. */
@Section({
  key: 'researcher',
  title: 'Researcher',
  template:
    'You research customer accounts in the CRM notes for another agent. Answer only from the notes you found, citing their ids.',
})
export class ResearcherSection {
  constructor(@inject(AccountNotes) private readonly notes: AccountNotes) {}

  @Tool({
    name: 'search_notes',
    description: 'Search the CRM notes of one account.',
    result: [Note],
    readOnly: true,
  })
  search(params: SearchNotesParams, _context: ToolContext): ToolResult<Note[]> {
    const found = this.notes.search(params.account, params.keywords ?? []);
    return ToolResult.ok(
      found,
      found.length === 0
        ? `No note about ${params.account} matches.`
        : `Found ${found.length} note(s): ${found.map((note) => note.id).join(', ')}.`,
    );
  }
}

/** The researcher's prompt: evaluated inside the lead's `delegate_research` tool. */
export const researcherPrompt = new Prompt({
  ns: 'examples/subagent',
  key: 'researcher',
  sections: [ResearcherSection],
  output: Findings,
});
