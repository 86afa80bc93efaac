import {
  ProviderAdapter,
  type ProviderCapabilities,
  providerCapabilities,
  type ProviderRequest,
  type ProviderTurn,
} from 'affordance/provider';
import { ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

/** The sentence of the hasty prompt this model reacts to. */
export const HASTY_MARKER = 'Be quick';

/**
 * The model's side of the offline eval, scripted per case: it follows
 * whichever guidance the prompt gives. Its first request's instructions
 * decide the script: the hasty one when the prompt says "Be quick", the
 * careful one otherwise; every turn then comes from that script (a
 * `ScriptedAdapter`, which fails loudly when the conversation goes off it).
 */
export class PromptFollowingModel extends ProviderAdapter {
  override readonly name: string = 'scripted';
  override readonly capabilities: ProviderCapabilities = providerCapabilities();
  readonly #careful: readonly ScriptedTurn[];
  readonly #hasty: readonly ScriptedTurn[];
  #script: ScriptedAdapter | undefined;

  constructor(careful: readonly ScriptedTurn[], hasty: readonly ScriptedTurn[] = careful) {
    super();
    this.#careful = careful;
    this.#hasty = hasty;
  }

  override request(request: ProviderRequest): Promise<ProviderTurn> {
    if (this.#script === undefined) {
      const instructions = request.messages
        .filter((message) => message.role === 'system')
        .map((message) => message.content)
        .join('\n');
      this.#script = new ScriptedAdapter(
        instructions.includes(HASTY_MARKER) ? this.#hasty : this.#careful,
      );
    }
    return this.#script.request(request);
  }
}
