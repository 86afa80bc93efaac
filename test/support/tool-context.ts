import { Container } from 'inversify';

import { Prompt } from '../../src/prompt/prompt.js';
import { AffordanceRuntime } from '../../src/runtime/affordance-runtime.js';
import type { EvaluateOptions } from '../../src/runtime/evaluate-options.js';
import { ScriptedAdapter } from '../../src/testing/scripted-adapter.js';
import { ResourceRegistry } from '../../src/resources/resource-registry.js';
import { Session } from '../../src/session/session.js';
import type { ServiceResolver, ToolContext } from '../../src/tools/tool-context.js';

/**
 * A frozen `ToolContext` for calling tool handlers directly: services come from
 * `services`, everything else is a fresh, empty evaluation (no deadline, budget or filesystem).
 */
export function toolContext(services: ServiceResolver, callId = 'call_1'): ToolContext {
  const prompt = new Prompt({ ns: 'test', key: 'direct-call', sections: [] });
  const runtime = new AffordanceRuntime(new Container());
  const adapter = new ScriptedAdapter([]);
  const session = new Session();
  return Object.freeze({
    callId,
    signal: new AbortController().signal,
    services,
    evaluationId: 'evaluation_1',
    prompt,
    renderedPrompt: prompt.render(),
    session,
    sessionView: session.view,
    deadline: undefined,
    budgetTracker: undefined,
    resources: new ResourceRegistry().open(),
    filesystem: undefined,
    adapter,
    evaluate: <O>(child: Prompt<O>, options: EvaluateOptions = {}) =>
      runtime.evaluate(child, { adapter, ...options }),
    reportProgress: () => undefined,
    media: (reference: string) => {
      throw new Error(`no media part ${reference} in a test context`);
    },
  });
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
