import { Injectable } from '@nestjs/common';

/** A help-centre article, as the search tool returns it. */
export class Article {
  id!: string;
  title!: string;
  body!: string;

  /** What the model reads. */
  render(): string {
    return `[${this.id}] ${this.title}: ${this.body}`;
  }
}

const articles: readonly {
  id: string;
  title: string;
  body: string;
  keywords: readonly string[];
}[] = [
  {
    id: 'kb-101',
    title: 'Reset your password',
    body: 'Open Settings > Security > Reset password. We email a link that works for 30 minutes.',
    keywords: ['password', 'reset', 'login', 'sign-in', 'locked'],
  },
  {
    id: 'kb-204',
    title: 'Refunds and invoices',
    body: 'Refunds for the last 60 days are issued from Billing > Invoices > Request refund, within 5 business days.',
    keywords: ['refund', 'invoice', 'billing', 'charge'],
  },
  {
    id: 'kb-310',
    title: 'Invite teammates',
    body: 'Admins invite teammates from Settings > Members. Invitations expire after 7 days.',
    keywords: ['invite', 'teammate', 'member', 'seat'],
  },
];

/** The help centre, one per application (a Nest singleton). */
@Injectable()
export class KnowledgeBase {
  /** Articles sharing a keyword with `query`, best match first. */
  search(query: string): Article[] {
    const words = query.toLowerCase().split(/[^a-z0-9-]+/);
    return articles
      .map((entry) => ({ entry, score: words.filter((w) => entry.keywords.includes(w)).length }))
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score)
      .map(({ entry }) =>
        Object.assign(new Article(), { id: entry.id, title: entry.title, body: entry.body }),
      );
  }
}
