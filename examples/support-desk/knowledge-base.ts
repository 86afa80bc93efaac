import { injectable } from 'inversify';

/** A help-centre article, as the search tool returns it. */
export class Article {
  id!: string;
  title!: string;
  body!: string;

  /** What the model reads instead of raw JSON. */
  render(): string {
    return `[${this.id}] ${this.title}: ${this.body}`;
  }
}

interface Entry {
  readonly id: string;
  readonly title: string;
  readonly body: string;
  readonly keywords: readonly string[];
}

const articles: readonly Entry[] = [
  {
    id: 'kb-101',
    title: 'Reset your password',
    body: 'Open Settings > Security > Reset password. The emailed link works for 30 minutes.',
    keywords: ['password', 'reset', 'login', 'locked'],
  },
  {
    id: 'kb-204',
    title: 'Refunds and invoices',
    body: 'Refunds for the last 60 days are requested from Billing > Invoices > Request refund.',
    keywords: ['refund', 'invoice', 'billing', 'charge'],
  },
  {
    id: 'kb-412',
    title: 'Large CSV exports time out',
    body: 'Exports over 100,000 rows can time out. Export by date range (90 days at most) and merge the files.',
    keywords: ['csv', 'export', 'timeout', 'report', 'rows'],
  },
];

/** The help centre: an application service the support section injects. */
@injectable()
export class KnowledgeBase {
  /** Every search made, oldest first (the example prints them). */
  readonly queries: string[] = [];

  /** Articles sharing a keyword with `query`, best match first. */
  search(query: string): Article[] {
    this.queries.push(query);
    const words = query.toLowerCase().split(/[^a-z0-9]+/);
    return articles
      .map((entry) => ({ entry, score: words.filter((w) => entry.keywords.includes(w)).length }))
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score)
      .map(({ entry }) =>
        Object.assign(new Article(), { id: entry.id, title: entry.title, body: entry.body }),
      );
  }
}
