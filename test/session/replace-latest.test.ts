import { appendAll } from '../../src/session/append-all.js';
import { replaceLatest } from '../../src/session/replace-latest.js';
import { Session } from '../../src/session/session.js';

class Status {
  constructor(readonly text: string) {}
}

describe('replaceLatest', () => {
  it('should keep only the newest value', () => {
    const session = new Session();
    const status = session.slice(Status).register(Status, replaceLatest);
    status.append(new Status('starting'));
    status.append(new Status('running'));
    expect(status.all()).toEqual([new Status('running')]);
  });
});

describe('appendAll', () => {
  it('should keep every value, duplicates included', () => {
    const session = new Session();
    const status = session.slice(Status).register(Status, appendAll);
    status.append(new Status('same'));
    status.append(new Status('same'));
    expect(status.size).toBe(2);
  });
});
