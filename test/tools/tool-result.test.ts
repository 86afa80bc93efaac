import { renderToolValue, ToolResult } from '../../src/tools/tool-result.js';

class Entity {
  constructor(
    readonly id: string,
    readonly note: string | null = null,
  ) {}
}

class Card {
  constructor(readonly title: string) {}
  render(): string {
    return `Card: ${this.title}`;
  }
}

class Counted {
  readonly count = 3;
  render(): number {
    return this.count;
  }
}

class Broken {
  readonly id = 'b-1';
  readonly missing = null;
  render(): string {
    throw new Error('cannot render');
  }
}

describe('ToolResult', () => {
  describe('.ok', () => {
    it('should build a successful result with the default message', () => {
      const value = new Entity('e-1');
      const result = ToolResult.ok(value);
      expect(result.message).toBe('OK');
      expect(result.value).toBe(value);
      expect(result.success).toBe(true);
      expect(result.excludeValueFromContext).toBe(false);
      expect(result.ok).toBe(true);
      expect(result.error).toBeUndefined();
    });

    it('should keep a given message', () => {
      expect(ToolResult.ok(1, 'Counted.').message).toBe('Counted.');
    });
  });

  describe('.error', () => {
    it('should build a failed result without a value', () => {
      const result = ToolResult.error('Entity e-9 not found.');
      expect(result.message).toBe('Entity e-9 not found.');
      expect(result.value).toBeNull();
      expect(result.success).toBe(false);
      expect(result.ok).toBe(false);
      expect(result.error).toBe('Entity e-9 not found.');
    });
  });

  describe('when constructed', () => {
    it('should default to success, an included value and a null value', () => {
      const result = new ToolResult({ message: 'Done.' });
      expect(result.value).toBeNull();
      expect(result.success).toBe(true);
      expect(result.excludeValueFromContext).toBe(false);
    });

    it('should report the message as the error of an unsuccessful result', () => {
      const result = new ToolResult({ message: 'Half done.', value: 1, success: false });
      expect(result.error).toBe('Half done.');
      expect(result.value).toBe(1);
    });
  });

  describe('.render', () => {
    it('should render no value as an empty string', () => {
      expect(ToolResult.ok(null).render()).toBe('');
      expect(new ToolResult({ message: 'x', value: undefined }).render()).toBe('');
    });

    it('should render a string value as itself', () => {
      expect(ToolResult.ok('plain text').render()).toBe('plain text');
    });

    it('should render primitives as JSON', () => {
      expect(ToolResult.ok(42).render()).toBe('42');
      expect(ToolResult.ok(false).render()).toBe('false');
    });

    it("should prefer the value's own render()", () => {
      expect(ToolResult.ok(new Card('Refunds')).render()).toBe('Card: Refunds');
    });

    it('should turn a non-string render() result into a string', () => {
      expect(ToolResult.ok(new Counted()).render()).toBe('3');
    });

    it('should fall back to JSON when render() throws', () => {
      expect(ToolResult.ok(new Broken()).render()).toBe('{"id":"b-1"}');
    });

    it('should render JSON in field order with null and undefined dropped at every depth', () => {
      const value = {
        id: 'e-1',
        note: null,
        extra: undefined,
        owner: { name: 'Ada', email: null, tags: ['a', null, 'b'] },
        history: [{ at: '2024-01-01', by: null }],
      };
      expect(ToolResult.ok(value).render()).toBe(
        '{"id":"e-1","owner":{"name":"Ada","tags":["a","b"]},"history":[{"at":"2024-01-01"}]}',
      );
      expect(ToolResult.ok(new Entity('e-2')).render()).toBe('{"id":"e-2"}');
    });

    it("should not use a nested field's render(), only the value's own", () => {
      expect(ToolResult.ok({ card: new Card('Refunds') }).render()).toBe(
        '{"card":{"title":"Refunds"}}',
      );
    });

    it('should render the same value to the same text', () => {
      const a = { b: 1, a: [new Entity('x', 'y')] };
      expect(ToolResult.ok(a).render()).toBe(ToolResult.ok(structuredClone(a)).render());
    });
  });

  describe('.render of an array', () => {
    it('should render an empty array as []', () => {
      expect(ToolResult.ok([]).render()).toBe('[]');
    });

    it('should render a JSON array when every item renders as JSON', () => {
      expect(ToolResult.ok([new Entity('a'), new Entity('b', 'second')]).render()).toBe(
        '[{"id":"a"},{"id":"b","note":"second"}]',
      );
      expect(
        ToolResult.ok([
          [1, 2],
          [3, null],
        ]).render(),
      ).toBe('[[1,2],[3]]');
    });

    it('should join the renderings with blank lines when an item renders as text', () => {
      expect(ToolResult.ok([new Card('One'), new Entity('e-1'), new Card('Two')]).render()).toBe(
        'Card: One\n\n{"id":"e-1"}\n\nCard: Two',
      );
      expect(ToolResult.ok(['first line', 'second line']).render()).toBe(
        'first line\n\nsecond line',
      );
    });

    it('should drop null and undefined items', () => {
      expect(ToolResult.ok([new Entity('a'), null, undefined]).render()).toBe('[{"id":"a"}]');
      expect(ToolResult.ok([null]).render()).toBe('[]');
    });
  });

  describe('.render of a cyclic value', () => {
    it('should not throw for an object that contains itself', () => {
      const node: { id: string; self?: unknown } = { id: 'n-1' };
      node.self = node;
      const text = ToolResult.ok(node).render();
      expect(text).toContain("id: 'n-1'");
      expect(text).toContain('Circular');
    });

    it('should not throw for an array that contains itself', () => {
      const list: unknown[] = [{ id: 'a' }];
      list.push(list);
      const text = ToolResult.ok(list).render();
      expect(text).toContain('{"id":"a"}');
      expect(text).toContain('Circular');
    });

    it('should render a value shared by two fields, which is not a cycle, as JSON', () => {
      const shared = { id: 's' };
      expect(ToolResult.ok({ a: shared, b: shared }).render()).toBe(
        '{"a":{"id":"s"},"b":{"id":"s"}}',
      );
      expect(ToolResult.ok([shared, shared]).render()).toBe('[{"id":"s"},{"id":"s"}]');
    });
  });

  describe('.toModelText', () => {
    it('should send the message, a blank line, then the rendering', () => {
      expect(ToolResult.ok(new Entity('e-1'), 'Fetched entity e-1.').toModelText()).toBe(
        'Fetched entity e-1.\n\n{"id":"e-1"}',
      );
    });

    it('should send the message alone when the value is excluded from context', () => {
      const result = new ToolResult({
        message: 'Stored the file.',
        value: new Entity('f-1'),
        excludeValueFromContext: true,
      });
      expect(result.toModelText()).toBe('Stored the file.');
      expect(result.render()).toBe('{"id":"f-1"}');
    });

    it('should send the message alone when the value renders empty', () => {
      expect(ToolResult.ok(null, 'Nothing found.').toModelText()).toBe('Nothing found.');
      expect(ToolResult.ok('', 'Empty.').toModelText()).toBe('Empty.');
      expect(ToolResult.error('Entity e-9 not found.').toModelText()).toBe('Entity e-9 not found.');
    });
  });
});

describe('renderToolValue', () => {
  it('should render maps, sets and dates through their JSON forms', () => {
    expect(renderToolValue(new Map([['k', 1]]))).toBe('{"k":1}');
    expect(renderToolValue({ tags: new Set(['a', 'b']) })).toBe('{"tags":["a","b"]}');
    expect(renderToolValue({ at: new Date(Date.UTC(2024, 0, 2)) })).toBe(
      '{"at":"2024-01-02T00:00:00.000Z"}',
    );
  });
});
