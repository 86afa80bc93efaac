import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';

import { VisibilityExpansionRequired } from '../core/errors/visibility-expansion-required.js';
import { recordFieldDescription } from '../metadata/describe-metadata.js';
import type { ToolContext } from '../tools/tool-context.js';
import { ToolDefinition } from '../tools/tool-definition.js';
import { ToolResult } from '../tools/tool-result.js';
import type { RenderedPrompt } from './rendered-prompt.js';
import { SectionVisibilityOverride } from './section-visibility.js';

/** The name of the tool that opens summarized sections with tools. */
export const OPEN_SECTIONS_TOOL = 'open_sections';
/** The name of the tool that reads summarized sections without tools. */
export const READ_SECTION_TOOL = 'read_section';

/** `@Describe` for the synthetic tools' params (the prompt layer does not use the decorators module). */
function described(text: string): PropertyDecorator {
  return (target, property) => {
    recordFieldDescription(target.constructor, String(property), text);
  };
}

/** Arguments of the synthetic `open_sections` tool (what its `ToolInvoked.params` holds). */
export class OpenSectionsParams {
  @described('Dotted keys of the summarized sections to open, as their headings show them')
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  sectionKeys!: string[];

  @described('Why you need these sections')
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  reason?: string;
}

/** Arguments of the synthetic `read_section` tool (what its `ToolInvoked.params` holds). */
export class ReadSectionParams {
  @described('Dotted key of the summarized section to read, as its heading shows it')
  @IsString()
  @MaxLength(1000)
  sectionKey!: string;
}

/**
 * The synthetic tools of progressive disclosure: `open_sections` opens
 * summarized sections that have tools (in the prompt's `disclosure` mode),
 * `read_section` returns the full text of one without tools. Shared by every
 * prompt: their handlers read the call's rendered prompt. @internal
 */
export const disclosureTools = {
  open: new ToolDefinition<OpenSectionsParams>({
    name: OPEN_SECTIONS_TOOL,
    description:
      'Open summarized sections of your instructions: you read their full text, and their tools are offered from your next turn.',
    params: OpenSectionsParams,
    handler: openSections,
  }),
  read: new ToolDefinition<ReadSectionParams>({
    name: READ_SECTION_TOOL,
    description: 'Read the full text of a summarized section of your instructions.',
    params: ReadSectionParams,
    readOnly: true,
    synchronous: true,
    handler: readSection,
  }),
};

function openSections(params: OpenSectionsParams, context: ToolContext): ToolResult {
  const rendered = context.renderedPrompt;
  const keys = [...new Set(params.sectionKeys.map((key) => key.trim()))];
  const unknown = keys.filter((key) => rendered.summarizedSection(key)?.hasTools !== true);
  if (unknown.length > 0) return notSummarized(unknown, rendered, true);
  if (context.prompt.disclosure === 'raise') {
    throw new VisibilityExpansionRequired({
      sectionKeys: keys,
      reason: params.reason ?? '',
      prompt: context.prompt.label,
    });
  }
  for (const key of keys) {
    context.session.dispatch(
      new SectionVisibilityOverride({ sectionPath: key, visibility: 'full' }),
    );
  }
  const texts = keys.map((key) => rendered.summarizedSection(key)?.text() ?? '');
  return ToolResult.ok(
    null,
    `Opened ${keys.join(', ')}; their tools are offered from your next turn.\n\n${texts.join('\n\n')}`,
  );
}

function readSection(params: ReadSectionParams, context: ToolContext): ToolResult {
  const key = params.sectionKey.trim();
  const section = context.renderedPrompt.summarizedSection(key);
  if (section === undefined) return notSummarized([key], context.renderedPrompt, false);
  return ToolResult.ok(null, section.text());
}

/** A failed result naming the sections that can be opened (or read) instead. */
function notSummarized(
  keys: readonly string[],
  rendered: RenderedPrompt,
  tools: boolean,
): ToolResult {
  const available = rendered.summarizedSections
    .filter((section) => !tools || section.hasTools)
    .map((section) => section.path);
  return ToolResult.error(
    `No summarized section ${tools ? 'with tools ' : ''}has the key ${keys.map((key) => `'${key}'`).join(', ')}. ` +
      `Summarized sections you can ${tools ? 'open' : 'read'}: ${available.length === 0 ? 'none' : available.join(', ')}.`,
  );
}
