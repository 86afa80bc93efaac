import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { inject, injectable } from 'inversify';

import { Describe } from '../../src/decorators/describe.js';
import { Section } from '../../src/decorators/section.js';
import { Tool } from '../../src/decorators/tool.js';
import { Prompt } from '../../src/prompt/prompt.js';
import type { ToolContext } from '../../src/tools/tool-context.js';
import { ToolResult } from '../../src/tools/tool-result.js';

class LookupParams {
  @Describe('Global identifier to fetch') @IsString() entityId!: string;
  @IsOptional() @IsBoolean() includeRelated?: boolean;
}
class LookupResult {
  entityId!: string;
  documentUrl!: string;
}
class GuidanceParams {
  primaryTool = 'lookup_entity';
}

@injectable()
class EntityStore {
  find(id: string): LookupResult {
    return Object.assign(new LookupResult(), {
      entityId: id,
      documentUrl: `https://example.test/${id}`,
    });
  }
}

@Section({
  key: 'guidance',
  title: 'Guidance',
  template:
    'Use tools when you need up-to-date context. Prefer ${primaryTool} for critical lookups.',
  params: GuidanceParams,
})
class GuidanceSection {
  constructor(@inject(EntityStore) private readonly store: EntityStore) {}

  @Tool({
    name: 'lookup_entity',
    description: 'Fetch structured information for a given entity id.',
    result: LookupResult,
  })
  lookup(params: LookupParams, _context: ToolContext): Promise<ToolResult<LookupResult>> {
    const doc = this.store.find(params.entityId);
    return Promise.resolve(ToolResult.ok(doc, `Fetched entity ${doc.entityId}.`));
  }
}

describe('the README quickstart example', () => {
  const prompt = new Prompt({
    ns: 'examples/tooling',
    key: 'tools_overview',
    sections: [GuidanceSection],
  });

  it('should render the numbered heading and the filled template', () => {
    const rendered = prompt.render({ params: [new GuidanceParams()] });
    expect(rendered.text).toBe(
      '## 1. Guidance (guidance)\n\nUse tools when you need up-to-date context. Prefer lookup_entity for critical lookups.',
    );
  });

  it('should contribute the decorated tool with its params class and descriptions', () => {
    const rendered = prompt.render({ params: [new GuidanceParams()] });
    expect(rendered.tools.map((tool) => tool.name)).toEqual(['lookup_entity']);
    expect(rendered.tools[0]?.paramsType).toBe(LookupParams);
    expect(rendered.tools[0]?.resultType).toBe(LookupResult);
    expect(rendered.toolParamDescriptions.get('lookup_entity')?.get('entityId')).toBe(
      'Global identifier to fetch',
    );
  });
});
