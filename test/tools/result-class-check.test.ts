import { Type } from 'class-transformer';
import { IsString, ValidateNested } from 'class-validator';

import {
  ConfigurationError,
  type DataClass,
  Prompt,
  Section,
  Tool,
  type ToolContext,
  ToolDefinition,
  ToolResult,
} from 'affordance';

import { catchError } from '../support/catch-error.js';

class Author {
  @IsString()
  name!: string;
}

class Untyped {
  @ValidateNested()
  author!: Author;
}

class Opaque {
  note!: string;
}

class Wrapper {
  @ValidateNested()
  @Type(() => Opaque)
  inner!: Opaque;
}

/** A plain data class: results come from the handler, so fields without validators are fine. */
class Plain {
  id = 'a-1';
  title = 'A title';
}

const tool = (result: unknown): ToolDefinition =>
  new ToolDefinition({
    name: 'lookup',
    description: 'Look something up.',
    result: result as DataClass,
    handler: () => ToolResult.ok(null),
  });

describe('result classes checked when the tool is built', () => {
  it('should refuse a @ValidateNested() field without @Type, naming class and field', () => {
    const error = catchError(ConfigurationError, () => tool(Untyped));

    expect(error.subject).toBe('Untyped.author');
    expect(error.fix).toContain('@Type(() => Author)');
  });

  it('should refuse a nested result class without validated fields, naming it and its field', () => {
    const error = catchError(ConfigurationError, () => tool([Wrapper]));

    expect(error.subject).toBe('Opaque.note');
  });

  it('should refuse a result that is not a class', () => {
    const error = catchError(ConfigurationError, () => tool('LookupResult'));

    expect(error.subject).toBe("Tool 'lookup'");
    expect(error.problem).toBe('its result is a string, not a class.');
  });

  it('should refuse a @Tool method with an unusable result class when the prompt is built', () => {
    @Section({ key: 'library', title: 'Library' })
    class Library {
      @Tool({ description: 'Find a book.', result: Untyped })
      find(_params: undefined, _context: ToolContext): ToolResult<null> {
        return ToolResult.ok(null);
      }
    }

    const error = catchError(
      ConfigurationError,
      () => new Prompt({ ns: 'test', key: 'library', sections: [Library] }),
    );

    expect(error.subject).toBe('Untyped.author');
  });

  it('should accept a plain data class and a usable nested one', () => {
    expect(tool(Plain).resultType).toBe(Plain);
    expect(tool([Author]).resultContainer).toBe('array');
  });
});
