import { injectable } from 'inversify';

/** A stored entity, as the lookup tool returns it. */
export class LookupResult {
  entityId!: string;
  documentUrl!: string;
  related?: string[];

  /** What the model reads instead of raw JSON. */
  render(): string {
    const related = this.related === undefined ? '' : ` Related: ${this.related.join(', ')}.`;
    return `Entity ${this.entityId} is documented at ${this.documentUrl}.${related}`;
  }
}

/** An application service the section injects: here an in-memory catalogue. */
@injectable()
export class EntityStore {
  private readonly entities = new Map<string, { url: string; related: string[] }>([
    ['acme-42', { url: 'https://docs.example.test/acme-42', related: ['acme-7'] }],
    ['acme-7', { url: 'https://docs.example.test/acme-7', related: [] }],
  ]);

  /** The entity with `id`, or `undefined`. */
  find(id: string, includeRelated: boolean): LookupResult | undefined {
    const entity = this.entities.get(id);
    if (entity === undefined) return undefined;
    const result = Object.assign(new LookupResult(), { entityId: id, documentUrl: entity.url });
    if (includeRelated) result.related = entity.related;
    return result;
  }
}
