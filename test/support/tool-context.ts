import type { ServiceResolver, ToolContext } from '../../src/tools/tool-context.js';

/** A frozen `ToolContext` for calling tool handlers directly, resolving services through `services`. */
export function toolContext(services: ServiceResolver, callId = 'call_1'): ToolContext {
  return Object.freeze({ callId, signal: new AbortController().signal, services });
}

/** A resolver that hands out the given instances by their exact class, and fails for any other class. */
export function instancesResolver(...instances: object[]): ServiceResolver {
  return {
    get<T>(id: abstract new (...args: never[]) => T): T {
      const found = instances.find((instance) => instance.constructor === id);
      if (found === undefined) throw new Error(`no instance of ${id.name} was provided`);
      return found as T;
    },
  };
}
