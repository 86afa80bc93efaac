import { Session, SlicePolicy } from 'affordance';

class Note {
  constructor(readonly text: string) {}
}

describe('session.version', () => {
  it('grows with every change to the slices and stays put while nothing changes', () => {
    const session = new Session();
    const versions = [session.version];
    session.dispatch(new Note('first'));
    versions.push(session.version);
    expect(session.view.slice(Note).all()).toHaveLength(1);
    versions.push(session.version); // a read changes nothing
    const snapshot = session.snapshot();
    session.dispatch(new Note('second'));
    versions.push(session.version);
    session.restore(snapshot);
    versions.push(session.version);
    session.slice(Note).seed(new Note('seeded'));
    versions.push(session.version);
    session.slice(Note).clear();
    versions.push(session.version);
    session.reset();
    versions.push(session.version);

    expect(versions[1]).toBeGreaterThan(versions[0] as number);
    expect(versions[2]).toBe(versions[1]);
    for (let index = 3; index < versions.length; index += 1) {
      expect(versions[index]).toBeGreaterThan(versions[index - 1] as number);
    }
  });

  it('is kept by a clone and then evolves on its own', () => {
    const session = new Session();
    session.slice(Note).setPolicy(SlicePolicy.State);
    session.dispatch(new Note('first'));
    const copy = session.clone();
    expect(copy.version).toBe(session.version);
    copy.dispatch(new Note('only in the copy'));
    expect(copy.version).toBeGreaterThan(session.version);
  });
});
