import { ConfigurationError } from '../../src/core/errors/configuration-error.js';
import { ResourceToken } from '../../src/resources/resource-key.js';
import { ResourceRegistry } from '../../src/resources/resource-registry.js';

class Database {}
const Greeting = new ResourceToken<string>('Greeting');

describe(ResourceRegistry, () => {
  describe('.bind', () => {
    it('should return a new registry and leave the original unchanged', () => {
      const empty = new ResourceRegistry();
      const bound = empty.bind(Database, { create: () => new Database() });
      expect(empty.has(Database)).toBe(false);
      expect(bound.has(Database)).toBe(true);
      expect(bound.keys).toEqual([Database]);
    });

    it('should reject an unknown scope, a missing factory and a non-singleton eager binding', () => {
      const registry = new ResourceRegistry();
      expect(() =>
        registry.bind(Database, { scope: 'forever' as never, create: () => new Database() }),
      ).toThrow(/unknown scope forever/);
      expect(() => registry.bind(Database, {} as never)).toThrow(/has no create function/);
      expect(() =>
        registry.bind(Database, { scope: 'prototype', eager: true, create: () => new Database() }),
      ).toThrow(ConfigurationError);
    });
  });

  describe('.merge', () => {
    it('should combine bindings and refuse conflicts unless not strict', () => {
      const a = new ResourceRegistry().value(Greeting, 'hello');
      const b = new ResourceRegistry().value(Greeting, 'bonjour').bind(Database, {
        create: () => new Database(),
      });
      expect(() => a.merge(b)).toThrow('ResourceRegistry.merge: both registries bind Greeting.');
      const merged = a.merge(b, { strict: false });
      expect(merged.open().get(Greeting)).toBe('bonjour');
      expect(merged.has(Database)).toBe(true);
    });
  });
});

describe(ResourceToken, () => {
  it('should describe itself', () => {
    expect(String(Greeting)).toBe('ResourceToken(Greeting)');
  });
});
