import { contentText } from '../../src/content/content-part.js';
import type { ProviderTurn } from '../../src/provider/conversation.js';
import { ProviderAdapter } from '../../src/provider/provider-adapter.js';
import {
  providerCapabilities,
  type ProviderCapabilities,
} from '../../src/provider/provider-capabilities.js';
import type { ProviderRequest } from '../../src/provider/provider-request.js';
import { ScriptedAdapter, type ScriptedTurn } from '../../src/testing/scripted-adapter.js';

/**
 * A scripted provider for servers that run evaluations concurrently: each
 * evaluation gets its own `ScriptedAdapter`, scripted from its user message by
 * `scriptFor`, so interleaved evaluations never take each other's turns. A
 * script must be used up when its evaluation answers.
 */
export class ScriptPerEvaluation extends ProviderAdapter {
  override readonly name: string = 'scripted';
  override readonly capabilities: ProviderCapabilities = providerCapabilities();
  /** The user message of every evaluation started, in order. */
  readonly inputs: string[] = [];
  readonly #scriptFor: (input: string) => readonly ScriptedTurn[];
  readonly #scripts = new Map<string, ScriptedAdapter>();

  constructor(scriptFor: (input: string) => readonly ScriptedTurn[]) {
    super();
    this.#scriptFor = scriptFor;
  }

  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    let script = this.#scripts.get(request.evaluationId);
    if (script === undefined) {
      const input = userMessage(request);
      this.inputs.push(input);
      script = new ScriptedAdapter(this.#scriptFor(input));
      this.#scripts.set(request.evaluationId, script);
    }
    const turn = await script.request(request);
    if ((turn.toolCalls ?? []).length === 0) {
      this.#scripts.delete(request.evaluationId);
      script.assertDone();
    }
    return turn;
  }
}

function userMessage(request: ProviderRequest): string {
  const message = request.messages.find((entry) => entry.role === 'user');
  return message?.role === 'user' ? contentText(message.content) : '';
}
