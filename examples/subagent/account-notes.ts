import { injectable } from 'inversify';

/** A note from the CRM, as the researcher's search tool returns it. */
export class Note {
  id!: string;
  account!: string;
  text!: string;

  /** What the model reads instead of raw JSON. */
  render(): string {
    return `[${this.id}] ${this.account}: ${this.text}`;
  }
}

const notes: readonly Note[] = [
  ['n-1', 'Globex', 'Weekly active users fell from 420 to 260 over the last 90 days.'],
  ['n-2', 'Globex', 'Three urgent tickets about slow CSV exports in May; two still open.'],
  ['n-3', 'Globex', 'Renewal due on 30 September; the champion, Hank, left in June.'],
  ['n-4', 'Initech', 'Usage steady; asked about the single sign-on add-on.'],
].map(([id, account, text]) => Object.assign(new Note(), { id, account, text }));

/** The CRM notes: an application service the researcher's section injects. */
@injectable()
export class AccountNotes {
  /** Notes about `account` that mention any of the `keywords` (all of its notes when none are given). */
  search(account: string, keywords: readonly string[]): Note[] {
    const words = keywords.map((word) => word.toLowerCase());
    return notes.filter(
      (note) =>
        note.account.toLowerCase() === account.toLowerCase() &&
        (words.length === 0 || words.some((word) => note.text.toLowerCase().includes(word))),
    );
  }
}
