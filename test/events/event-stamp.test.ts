import { jest } from '@jest/globals';

import { ToolInvoked, ToolResult } from 'affordance';

const context = { promptName: 'ns/key', promptNs: 'ns', promptKey: 'key', adapter: 'scripted' };

function call(name: string, createdAt?: Date): ToolInvoked {
  return new ToolInvoked({ ...context, name, result: ToolResult.ok('done'), createdAt });
}

describe('event stamps', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('should share one frozen Date between the events made in the same millisecond', () => {
    jest.useFakeTimers({ now: new Date('2026-01-02T03:04:05.006Z') });
    const first = call('a');
    const second = call('b');

    expect(second.createdAt).toBe(first.createdAt);
    expect(Object.isFrozen(first.createdAt)).toBe(true);
    expect(first.createdAt.toISOString()).toBe('2026-01-02T03:04:05.006Z');

    jest.advanceTimersByTime(1);
    const later = call('c');

    expect(later.createdAt).not.toBe(first.createdAt);
    expect(later.createdAt.toISOString()).toBe('2026-01-02T03:04:05.007Z');
    expect(first.createdAt.toISOString()).toBe('2026-01-02T03:04:05.006Z');
  });

  it('should keep a copy of its own of a createdAt it was given', () => {
    const given = new Date('2025-05-05T05:05:05.000Z');
    const event = call('a', given);
    const other = call('b', given);

    expect(event.createdAt).not.toBe(given);
    expect(event.createdAt).not.toBe(other.createdAt);
    expect(event.createdAt.getTime()).toBe(given.getTime());
    expect(Object.isFrozen(event.createdAt)).toBe(true);
  });
});
