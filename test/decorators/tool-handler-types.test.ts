/**
 * `@Tool` accepts only methods that fit a tool handler:
 * `(params, context: ToolContext) => ToolResult<R> | Promise<ToolResult<R>>`, with `R`
 * from `result:`. `npm run typecheck` type-checks this file: each
 * `@ts-expect-error` must meet an error, so a signature the decorator stops
 * refusing fails the type check. The methods that fit run as usual.
 */
import { IsInt, IsString } from 'class-validator';

import { Prompt, Section, Tool, type ToolContext, ToolResult } from 'affordance';
import { createTestRuntime } from 'affordance/testing';

class Query {
  @IsString()
  text!: string;
}

class Hit {
  @IsString()
  title!: string;
}

class Other {
  @IsInt()
  count!: number;
}

const hit = (title: string): Hit => Object.assign(new Hit(), { title });

@Section({ key: 'fits', title: 'Fits' })
class Fits {
  @Tool({ description: 'Search.', result: Hit })
  search(params: Query, _context: ToolContext): ToolResult<Hit> {
    return ToolResult.ok(hit(params.text));
  }

  @Tool({ description: 'Search all.', result: [Hit] })
  async searchAll(params: Query, _context: ToolContext): Promise<ToolResult<Hit[]>> {
    return Promise.resolve(ToolResult.ok([hit(params.text)]));
  }

  @Tool({ description: 'Refresh.' })
  refresh(_params: undefined, _context: ToolContext): ToolResult<null> {
    return ToolResult.ok(null, 'Refreshed.');
  }

  @Tool({ description: 'Fail.', result: Hit })
  fail(_params: Query, _context: ToolContext): ToolResult<Hit> {
    return ToolResult.error('Nothing found.');
  }
}

@Section({ key: 'misfits', title: 'Misfits' })
export class Misfits {
  // @ts-expect-error -- returns a string, not a ToolResult.
  @Tool({ description: 'Text.' })
  text(_params: Query, _context: ToolContext): string {
    return 'text';
  }

  // @ts-expect-error -- returns a promise of a plain value.
  @Tool({ description: 'Later.' })
  async later(_params: Query, _context: ToolContext): Promise<number> {
    return Promise.resolve(1);
  }

  // @ts-expect-error -- the result class is Hit, the method returns ToolResult<Other>.
  @Tool({ description: 'Count.', result: Hit })
  count(_params: Query, _context: ToolContext): ToolResult<Other> {
    return ToolResult.ok(Object.assign(new Other(), { count: 1 }));
  }

  // @ts-expect-error -- the result is a list of Hit, the method returns one.
  @Tool({ description: 'One.', result: [Hit] })
  one(params: Query, _context: ToolContext): ToolResult<Hit> {
    return ToolResult.ok(hit(params.text));
  }

  // @ts-expect-error -- no context parameter.
  @Tool({ description: 'Alone.' })
  alone(_params: Query): ToolResult<null> {
    return ToolResult.ok(null);
  }

  // @ts-expect-error -- the second parameter is not a ToolContext.
  @Tool({ description: 'Numbered.' })
  numbered(_params: Query, _limit: number): ToolResult<null> {
    return ToolResult.ok(null);
  }

  // @ts-expect-error -- params are a primitive, not a params class.
  @Tool({ description: 'Echo.' })
  echo(_params: string, _context: ToolContext): ToolResult<null> {
    return ToolResult.ok(null);
  }
}

it('runs the methods that fit a tool handler', async () => {
  const prompt = new Prompt({ ns: 'test', key: 'fits', sections: [Fits] });
  const { runtime } = createTestRuntime({ configure: (c) => c.bind(Fits).toSelf() });

  const found = await runtime.callTool(prompt, { name: 'search', arguments: { text: 'docs' } });
  const all = await runtime.callTool(prompt, { name: 'search_all', arguments: { text: 'docs' } });

  expect(found.event.result.value).toEqual(hit('docs'));
  expect(all.event.result.value).toEqual([hit('docs')]);
});
