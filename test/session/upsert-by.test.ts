import { Session } from '../../src/session/session.js';
import { upsertBy } from '../../src/session/upsert-by.js';

class Task {
  constructor(
    readonly id: string,
    readonly title: string,
  ) {}
}

describe('upsertBy', () => {
  it('should keep one value per key, the updated one moving last', () => {
    const session = new Session();
    const tasks = session.slice(Task).register(
      Task,
      upsertBy((task) => task.id),
    );
    tasks.append(new Task('a', 'first'));
    tasks.append(new Task('b', 'second'));
    tasks.append(new Task('a', 'first, revised'));
    expect(tasks.all()).toEqual([new Task('b', 'second'), new Task('a', 'first, revised')]);
  });

  it('should remove every earlier value with the key', () => {
    const session = new Session();
    const tasks = session.slice(Task);
    tasks.seed([new Task('a', '1'), new Task('a', '2')]);
    tasks.register(
      Task,
      upsertBy((task) => task.id),
    );
    tasks.append(new Task('a', '3'));
    expect(tasks.all()).toEqual([new Task('a', '3')]);
  });
});
