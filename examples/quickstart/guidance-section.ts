import { IsBoolean, IsOptional, IsString, Matches } from 'class-validator';
import { inject } from 'inversify';

import { Describe, Section, Tool, type ToolContext, ToolResult } from 'affordance';

import { EntityStore, LookupResult } from './entity-store.js';

/** Arguments of `lookup_entity`. */
export class LookupParams {
  @Describe('Global identifier to fetch, e.g. acme-42')
  @IsString()
  @Matches(/^[a-z]+-\d+$/)
  entityId!: string;

  @Describe('Also list related entities')
  @IsOptional()
  @IsBoolean()
  includeRelated?: boolean;
}

/** Values for the guidance template. */
export class GuidanceParams {
  primaryTool = 'lookup_entity';
}

/** Instructions plus the tool they document, in one class. */
@Section({
  key: 'guidance',
  title: 'Guidance',
  template:
    'Use tools when you need up-to-date context. Prefer ${primaryTool} for critical lookups.',
  params: GuidanceParams,
})
export class GuidanceSection {
  constructor(@inject(EntityStore) private readonly store: EntityStore) {}

  @Tool({
    name: 'lookup_entity',
    description: 'Fetch structured information for a given entity id.',
    result: LookupResult,
    readOnly: true,
  })
  lookup(params: LookupParams, _context: ToolContext): ToolResult<LookupResult> {
    const doc = this.store.find(params.entityId, params.includeRelated ?? false);
    if (doc === undefined) return ToolResult.error(`No entity '${params.entityId}'. Check the id.`);
    return ToolResult.ok(doc, `Fetched entity ${doc.entityId}.`);
  }
}
