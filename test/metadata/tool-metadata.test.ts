import { IsString } from 'class-validator';

import { Tool } from '../../src/decorators/tool.js';
import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { readToolMethods } from '../../src/tools/tool-metadata.js';
import type { ToolContext } from '../../src/tools/tool-context.js';
import { ToolExample } from '../../src/tools/tool-example.js';
import { ToolResult } from '../../src/tools/tool-result.js';
import { catchError } from '../support/catch-error.js';

class SearchParams {
  @IsString() query!: string;
}
class SearchHit {
  title!: string;
}
class OtherParams {
  @IsString() text!: string;
}
interface SearchShape {
  query: string;
}

const none = (): ToolResult<null> => ToolResult.ok(null);

class KnowledgeBase {
  @Tool({ description: 'Search the knowledge base.', result: [SearchHit], readOnly: true })
  searchArticles(_params: SearchParams, _context: ToolContext): ToolResult<null> {
    return none();
  }

  @Tool({ name: 'open', description: 'Open one article.' })
  openArticle(_params: OtherParams, _context: ToolContext): ToolResult<null> {
    return none();
  }

  @Tool({ description: 'List the categories.' })
  listCategories(_params: undefined, _context: ToolContext): ToolResult<null> {
    return none();
  }

  notATool(_params: SearchParams, _context: ToolContext): ToolResult<null> {
    return none();
  }
}

describe('readToolMethods', () => {
  describe('when the methods are well declared', () => {
    it('should list the @Tool methods in declaration order with their tool names', () => {
      expect(readToolMethods(KnowledgeBase).map((m) => [m.methodName, m.name])).toEqual([
        ['searchArticles', 'search_articles'],
        ['openArticle', 'open'],
        ['listCategories', 'list_categories'],
      ]);
    });

    it('should read the params class from the first parameter type', () => {
      const [search, open] = readToolMethods(KnowledgeBase);
      expect(search?.paramsType).toBe(SearchParams);
      expect(open?.paramsType).toBe(OtherParams);
    });

    it("should keep the decorator's options", () => {
      const [search] = readToolMethods(KnowledgeBase);
      expect(search?.options.description).toBe('Search the knowledge base.');
      expect(search?.options.result).toEqual([SearchHit]);
      expect(search?.options.readOnly).toBe(true);
    });

    it('should return the same frozen list on every read', () => {
      const first = readToolMethods(KnowledgeBase);
      expect(readToolMethods(KnowledgeBase)).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
    });

    it('should return an empty list for a class without tools', () => {
      class Plain {}
      expect(readToolMethods(Plain)).toEqual([]);
    });
  });

  describe('when the first parameter is typed `undefined`', () => {
    it('should see the compiler emit no type for it', () => {
      const emitted = Reflect.getMetadata(
        'design:paramtypes',
        KnowledgeBase.prototype,
        'listCategories',
      ) as unknown[];
      expect(emitted).toHaveLength(2);
      expect(emitted[0]).toBeUndefined();
    });

    it('should read a tool without params', () => {
      const list = readToolMethods(KnowledgeBase).find((m) => m.methodName === 'listCategories');
      expect(list?.paramsType).toBeUndefined();
    });
  });

  describe('when `params` is given explicitly', () => {
    it('should win over the emitted parameter type', () => {
      class Explicit {
        @Tool({ description: 'Search.', params: SearchParams })
        search(_params: SearchShape, _context: ToolContext): ToolResult<null> {
          return none();
        }
      }
      expect(readToolMethods(Explicit)[0]?.paramsType).toBe(SearchParams);
    });

    it('should still have to be a class (a primitive wrapper type-checks but is refused)', () => {
      class ExplicitString {
        // @ts-expect-error -- a primitive params type does not fit a tool handler (the runtime refusal is what this test checks).
        @Tool({ description: 'Echo.', params: String })
        echo(_params: string, _context: ToolContext): ToolResult<null> {
          return none();
        }
      }
      const error = catchError(ConfigurationError, () => readToolMethods(ExplicitString));
      expect(error.message).toContain('@Tool ExplicitString.echo');
      expect(error.message).toContain('the params type is String, not a params class.');
    });
  });

  describe('when the method takes fewer than two parameters', () => {
    it('should name Class.method and show the signature to write', () => {
      class OneParameter {
        // @ts-expect-error -- a method without the context parameter does not fit a tool handler (the runtime refusal is what this test checks).
        @Tool({ description: 'Search.' })
        search(_params: SearchParams): ToolResult<null> {
          return none();
        }
      }
      const error = catchError(ConfigurationError, () => readToolMethods(OneParameter));
      expect(error.subject).toBe('@Tool OneParameter.search');
      expect(error.message).toContain('OneParameter.search');
      expect(error.problem).toContain('takes 1 parameter(s)');
      expect(error.fix).toContain('search(params: Params, context: ToolContext)');
      expect(error.fix).toContain('(_params: undefined, context: ToolContext)');
    });

    it('should reject a method without parameters', () => {
      class NoParameter {
        // @ts-expect-error -- a method without parameters does not fit a tool handler (the runtime refusal is what this test checks).
        @Tool({ description: 'Refresh.' })
        refresh(): ToolResult<null> {
          return none();
        }
      }
      const error = catchError(ConfigurationError, () => readToolMethods(NoParameter));
      expect(error.subject).toBe('@Tool NoParameter.refresh');
      expect(error.problem).toContain('takes 0 parameter(s)');
    });
  });

  describe('when the params type is not a class', () => {
    it('should explain that an interface does not exist at runtime', () => {
      class WithInterface {
        @Tool({ description: 'Search.' })
        search(_params: SearchShape, _context: ToolContext): ToolResult<null> {
          return none();
        }
      }
      const error = catchError(ConfigurationError, () => readToolMethods(WithInterface));
      expect(error.subject).toBe('@Tool WithInterface.search');
      expect(error.problem).toContain('interface');
      expect(error.fix).toContain('Declare the params as a class');
    });

    it('should name a union with undefined as a possible cause', () => {
      class WithUnion {
        @Tool({ description: 'Search.' })
        search(_params: SearchParams | undefined, _context: ToolContext): ToolResult<null> {
          return none();
        }
      }
      const error = catchError(ConfigurationError, () => readToolMethods(WithUnion));
      expect(error.problem).toContain('`Params | undefined`');
    });

    it('should reject string params', () => {
      class StringParams {
        // @ts-expect-error -- a primitive params type does not fit a tool handler (the runtime refusal is what this test checks).
        @Tool({ description: 'Echo.' })
        echo(_params: string, _context: ToolContext): ToolResult<null> {
          return none();
        }
      }
      const error = catchError(ConfigurationError, () => readToolMethods(StringParams));
      expect(error.subject).toBe('@Tool StringParams.echo');
      expect(error.problem).toBe('the params type is String, not a params class.');
      expect(error.fix).toContain('Wrap the arguments in a class');
    });

    it('should reject array params', () => {
      class ArrayParams {
        @Tool({ description: 'Echo.' })
        echo(_params: SearchParams[], _context: ToolContext): ToolResult<null> {
          return none();
        }
      }
      const error = catchError(ConfigurationError, () => readToolMethods(ArrayParams));
      expect(error.problem).toBe('the params type is Array, not a params class.');
    });
  });

  describe('when the compiler emitted no decorator metadata', () => {
    // A class without decorators gets no design:* metadata, exactly as with emitDecoratorMetadata off.
    class Undecorated {
      search(_params: SearchParams, _context: ToolContext): ToolResult<null> {
        return none();
      }
    }
    const decorate = (cls: typeof Undecorated, options: Parameters<typeof Tool>[0]): void => {
      const descriptor = Object.getOwnPropertyDescriptor(Undecorated.prototype, 'search')!;
      Tool(options)(cls.prototype, 'search', descriptor);
    };

    it('should tell to enable emitDecoratorMetadata or pass `params`', () => {
      class Bare extends Undecorated {}
      decorate(Bare, { description: 'Search.' });
      expect(Reflect.getMetadata('design:paramtypes', Bare.prototype, 'search')).toBeUndefined();
      const error = catchError(ConfigurationError, () => readToolMethods(Bare));
      expect(error.subject).toBe('@Tool Bare.search');
      expect(error.fix).toContain('"emitDecoratorMetadata": true');
      expect(error.fix).toContain('pass `params: YourParams` to @Tool');
    });

    it('should work from an explicit `params` option', () => {
      class WithParams extends Undecorated {}
      decorate(WithParams, { description: 'Search.', params: SearchParams });
      expect(readToolMethods(WithParams)[0]?.paramsType).toBe(SearchParams);
    });
  });

  describe('when reflect-metadata was not loaded', () => {
    // Everything reflect-metadata adds to Reflect; the compiled `__decorate` helper also uses
    // `Reflect.decorate` when present, which (unlike its fallback) does not skip missing metadata.
    const reflect = Reflect as unknown as Record<string, unknown>;
    const saved = [
      'decorate',
      'metadata',
      'defineMetadata',
      'hasMetadata',
      'hasOwnMetadata',
      'getMetadata',
      'getOwnMetadata',
      'getMetadataKeys',
      'getOwnMetadataKeys',
      'deleteMetadata',
    ].map((key) => [key, Object.getOwnPropertyDescriptor(reflect, key)] as const);
    const unloadReflectMetadata = (): void => {
      for (const [key] of saved) Reflect.deleteProperty(reflect, key);
    };
    afterEach(() => {
      for (const [key, descriptor] of saved) {
        if (descriptor !== undefined) Object.defineProperty(reflect, key, descriptor);
      }
    });

    function defineSection(): abstract new () => unknown {
      class Unreflected {
        @Tool({ description: 'Search.' })
        search(_params: SearchParams, _context: ToolContext): ToolResult<null> {
          return none();
        }
      }
      return Unreflected;
    }

    it("should tell to `import 'reflect-metadata'`", () => {
      unloadReflectMetadata();
      expect(typeof reflect['getMetadata']).toBe('undefined');
      const cls = defineSection();
      const error = catchError(ConfigurationError, () => readToolMethods(cls));
      expect(error.subject).toBe('@Tool Unreflected.search');
      expect(error.problem).toContain('reflect-metadata was not loaded');
      expect(error.fix).toContain("import 'reflect-metadata';");
    });

    it('should find reflect-metadata restored by afterEach', () => {
      expect(typeof reflect['getMetadata']).toBe('function');
      expect(readToolMethods(defineSection())[0]?.paramsType).toBe(SearchParams);
    });
  });

  describe('when two methods share a tool name', () => {
    it('should name both methods', () => {
      class Duplicated {
        @Tool({ name: 'find', description: 'Find one.' })
        findOne(_params: SearchParams, _context: ToolContext): ToolResult<null> {
          return none();
        }

        @Tool({ name: 'find', description: 'Find many.' })
        findMany(_params: SearchParams, _context: ToolContext): ToolResult<null> {
          return none();
        }
      }
      const error = catchError(ConfigurationError, () => readToolMethods(Duplicated));
      expect(error.message).toContain('Duplicated.findMany');
      expect(error.message).toContain('Duplicated.findOne');
      expect(error.problem).toContain("tool name 'find'");
      expect(error.fix).toContain('another `name`');
    });

    it('should compare default names too', () => {
      class DefaultClash {
        @Tool({ description: 'Look up.' })
        lookupEntity(_params: SearchParams, _context: ToolContext): ToolResult<null> {
          return none();
        }

        @Tool({ name: 'lookup_entity', description: 'Look up again.' })
        lookupAgain(_params: SearchParams, _context: ToolContext): ToolResult<null> {
          return none();
        }
      }
      const error = catchError(ConfigurationError, () => readToolMethods(DefaultClash));
      expect(error.message).toContain('DefaultClash.lookupAgain');
      expect(error.message).toContain('DefaultClash.lookupEntity');
    });
  });

  describe('when a class extends another', () => {
    class BaseTools {
      @Tool({ description: 'Search, base version.' })
      search(_params: SearchParams, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok('base search');
      }

      @Tool({ description: 'Read, base version.' })
      read(_params: SearchParams, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok('base read');
      }

      @Tool({ description: 'Count articles.' })
      count(_params: undefined, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok('base count');
      }
    }

    class DerivedTools extends BaseTools {
      @Tool({ name: 'search_v2', description: 'Search, derived version.', params: OtherParams })
      override search(_params: SearchParams, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok('derived search');
      }

      override read(_params: SearchParams, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok('derived read');
      }

      @Tool({ description: 'Summarise an article.' })
      summarise(_params: OtherParams, _context: ToolContext): ToolResult<string> {
        return ToolResult.ok('derived summarise');
      }
    }

    it('should inherit the base tools, let same-named methods replace them in place and add its own', () => {
      expect(
        readToolMethods(DerivedTools).map((m) => [m.methodName, m.name, m.options.description]),
      ).toEqual([
        ['search', 'search_v2', 'Search, derived version.'],
        ['read', 'read', 'Read, base version.'],
        ['count', 'count', 'Count articles.'],
        ['summarise', 'summarise', 'Summarise an article.'],
      ]);
      expect(readToolMethods(DerivedTools)[0]?.paramsType).toBe(OtherParams);
    });

    it('should leave the base class unchanged', () => {
      expect(readToolMethods(BaseTools).map((m) => m.name)).toEqual(['search', 'read', 'count']);
    });

    it('should reject a subclass tool whose name is taken by an inherited one', () => {
      class Clashing extends BaseTools {
        @Tool({ name: 'count', description: 'Count again.' })
        recount(_params: undefined, _context: ToolContext): ToolResult<string> {
          return ToolResult.ok('recount');
        }
      }
      const error = catchError(ConfigurationError, () => readToolMethods(Clashing));
      expect(error.message).toContain('Clashing.recount');
      expect(error.message).toContain('Clashing.count');
    });
  });

  describe('when examples are given', () => {
    it('should pass them through with the options', () => {
      const example = new ToolExample({ description: 'Search.', input: new SearchParams() });
      class WithExamples {
        @Tool({ description: 'Search.', examples: [example] })
        search(_params: SearchParams, _context: ToolContext): ToolResult<null> {
          return none();
        }
      }
      expect(readToolMethods(WithExamples)[0]?.options.examples).toEqual([example]);
    });
  });
});
