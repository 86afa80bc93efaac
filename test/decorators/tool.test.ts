import { IsString } from 'class-validator';

import { Section } from '../../src/decorators/section.js';
import { Tool } from '../../src/decorators/tool.js';
import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { PromptValidationError } from '../../src/core/errors/prompt-validation-error.js';
import { readToolMethods } from '../../src/tools/tool-metadata.js';
import { sectionFromClass } from '../../src/prompt/section-from-class.js';
import type { ToolContext } from '../../src/tools/tool-context.js';
import type { ToolDefinition } from '../../src/tools/tool-definition.js';
import { ToolExample } from '../../src/tools/tool-example.js';
import { ToolResult } from '../../src/tools/tool-result.js';
import { catchError } from '../support/catch-error.js';
import { instancesResolver, toolContext } from '../support/tool-context.js';
import { TypeImportSection } from './fixtures/type-import-section.js';

class NoteParams {
  @IsString() text!: string;
}
class Note {
  text!: string;
}

const note = (text: string): NoteParams => Object.assign(new NoteParams(), { text });

function toolNamed(cls: abstract new (...args: never[]) => unknown, name: string): ToolDefinition {
  const found = sectionFromClass(cls).tools.find((tool) => tool.name === name);
  if (found === undefined) throw new Error(`no tool '${name}' on ${cls.name}`);
  return found;
}

async function call(tool: ToolDefinition, params: unknown, instance: object): Promise<ToolResult> {
  return await tool.handler!(params, toolContext(instancesResolver(instance)));
}

@Section({ key: 'notes', title: 'Notes' })
class NotesSection {
  readonly saved: string[] = [];

  @Tool({
    description: '  Save a note.  ',
    result: Note,
    readOnly: false,
    acceptsOverrides: false,
    examples: [
      new ToolExample({
        description: 'Save a reminder.',
        input: note('buy milk'),
        output: Object.assign(new Note(), { text: 'buy milk' }),
      }),
    ],
  })
  saveNote(params: NoteParams, context: ToolContext): ToolResult<Note> {
    this.saved.push(params.text);
    return ToolResult.ok(
      Object.assign(new Note(), { text: params.text }),
      `Saved in ${context.callId}.`,
    );
  }

  @Tool({ name: 'list_notes', description: 'List the notes.', result: [Note], readOnly: true })
  async list(_params: undefined, _context: ToolContext): Promise<ToolResult<Note[]>> {
    await Promise.resolve();
    return ToolResult.ok(this.saved.map((text) => Object.assign(new Note(), { text })));
  }
}

describe('Tool', () => {
  describe('when a @Section method is decorated', () => {
    it('should become a ToolDefinition with the options and the inferred params class', () => {
      const save = toolNamed(NotesSection, 'save_note');
      expect(save.description).toBe('Save a note.');
      expect(save.paramsType).toBe(NoteParams);
      expect(save.resultType).toBe(Note);
      expect(save.resultContainer).toBe('object');
      expect(save.acceptsOverrides).toBe(false);
      expect(save.examples.map((e) => e.description)).toEqual(['Save a reminder.']);
      const list = toolNamed(NotesSection, 'list_notes');
      expect(list.paramsType).toBeUndefined();
      expect(list.resultContainer).toBe('array');
      expect(list.readOnly).toBe(true);
      expect(list.acceptsOverrides).toBe(true);
    });

    it('should call the method on the resolved instance with `this` bound', async () => {
      const instance = new NotesSection();
      const saved = await call(toolNamed(NotesSection, 'save_note'), note('call mum'), instance);
      expect(saved.message).toBe('Saved in call_1.');
      expect(saved.value).toEqual(Object.assign(new Note(), { text: 'call mum' }));
      expect(instance.saved).toEqual(['call mum']);
      const listed = await call(toolNamed(NotesSection, 'list_notes'), undefined, instance);
      expect(listed.render()).toBe('[{"text":"call mum"}]');
    });

    it('should validate the examples when the section is built', () => {
      @Section({ key: 'bad_examples', title: 'Bad examples' })
      class BadExamples {
        @Tool({
          description: 'Save a note.',
          examples: [new ToolExample({ description: 'Save.', input: { text: 'plain object' } })],
        })
        save(_params: NoteParams, _context: ToolContext): ToolResult<null> {
          return ToolResult.ok(null);
        }
      }
      const error = catchError(PromptValidationError, () => sectionFromClass(BadExamples));
      expect(error.message).toContain('Tool example input must match the tool params type');
      expect(error.paramsType).toBe(NoteParams);
    });

    it('should validate the tool name when the section is built', () => {
      @Section({ key: 'bad_name', title: 'Bad name' })
      class BadName {
        @Tool({ name: 'Save Note', description: 'Save a note.' })
        save(_params: NoteParams, _context: ToolContext): ToolResult<null> {
          return ToolResult.ok(null);
        }
      }
      const error = catchError(PromptValidationError, () => sectionFromClass(BadName));
      expect(error.message).toContain("Try 'save_note'.");
    });
  });

  describe('when applied to a static method', () => {
    it('should fail at decoration and say to make it an instance method', () => {
      const error = catchError(ConfigurationError, () => {
        class StaticTool {
          @Tool({ description: 'Save a note.' })
          static save(_params: NoteParams, _context: ToolContext): ToolResult<null> {
            return ToolResult.ok(null);
          }
        }
        return StaticTool;
      });
      expect(error.subject).toBe('@Tool StaticTool.save');
      expect(error.fix).toContain('instance method');
    });
  });

  describe('when the params class is imported with `import type`', () => {
    it('should see ts-jest emit `Object` for the erased class', () => {
      const emitted = Reflect.getMetadata(
        'design:paramtypes',
        TypeImportSection.prototype,
        'search',
      ) as unknown[];
      expect(emitted[0]).toBe(Object);
    });

    it('should say to import the class as a value', () => {
      const error = catchError(ConfigurationError, () => readToolMethods(TypeImportSection));
      expect(error.subject).toBe('@Tool TypeImportSection.search');
      expect(error.problem).toContain('`import type`');
      expect(error.fix).toContain('import it as a value');
      expect(error.fix).toContain('pass `params: LookupParams` to @Tool');
    });
  });

  describe('when a subclass overrides tools', () => {
    @Section({ key: 'base', title: 'Base' })
    class BaseNotes {
      @Tool({ description: 'Save a note.' })
      save(params: NoteParams, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok(`base saved ${params.text}`);
      }

      @Tool({ description: 'Delete a note.' })
      remove(params: NoteParams, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok(`base removed ${params.text}`);
      }

      @Tool({ description: 'Count the notes.' })
      count(_params: undefined, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok(`counted by ${this.constructor.name}`);
      }
    }

    @Section({ key: 'derived', title: 'Derived' })
    class DerivedNotes extends BaseNotes {
      @Tool({ description: 'Save a note, derived.' })
      override save(params: NoteParams, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok(`derived saved ${params.text}`);
      }

      override remove(params: NoteParams, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok(`derived removed ${params.text}`);
      }

      @Tool({ description: 'Archive a note.' })
      archive(params: NoteParams, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok(`derived archived ${params.text}`);
      }
    }

    const run = async (
      cls: typeof BaseNotes,
      name: string,
      instance: BaseNotes,
    ): Promise<unknown> => (await call(toolNamed(cls, name), note('x'), instance)).value;

    it('should run the re-decorated override with its own options', async () => {
      expect(toolNamed(DerivedNotes, 'save').description).toBe('Save a note, derived.');
      expect(await run(DerivedNotes, 'save', new DerivedNotes())).toBe('derived saved x');
    });

    it('should run an override that is not re-decorated under the base options', async () => {
      expect(toolNamed(DerivedNotes, 'remove').description).toBe('Delete a note.');
      expect(await run(DerivedNotes, 'remove', new DerivedNotes())).toBe('derived removed x');
    });

    it('should run inherited tools on the subclass instance and add its own', async () => {
      expect(sectionFromClass(DerivedNotes).tools.map((t) => t.name)).toEqual([
        'save',
        'remove',
        'count',
        'archive',
      ]);
      expect(await run(DerivedNotes, 'count', new DerivedNotes())).toBe('counted by DerivedNotes');
      expect(await run(DerivedNotes, 'archive', new DerivedNotes())).toBe('derived archived x');
    });

    it('should keep the base section on its own implementations', async () => {
      expect(sectionFromClass(BaseNotes).tools.map((t) => t.name)).toEqual([
        'save',
        'remove',
        'count',
      ]);
      expect(await run(BaseNotes, 'save', new BaseNotes())).toBe('base saved x');
      expect(await run(BaseNotes, 'remove', new BaseNotes())).toBe('base removed x');
    });
  });
});
