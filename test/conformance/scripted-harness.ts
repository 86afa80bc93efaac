import type { ProviderRequest, ProviderTurn } from 'affordance/provider';
import {
  type AdapterHarness,
  type FedBackToolResult,
  ScriptedAdapter,
  type ScriptedTurn,
} from 'affordance/testing';

/**
 * A `ScriptedAdapter` that, with `hang`, holds the first request past its
 * script open until the request's signal aborts, as a provider that never
 * answers would (the plain `ScriptedAdapter` fails such a request at once).
 */
export class HangingScriptedAdapter extends ScriptedAdapter {
  readonly #hang: boolean;

  constructor(turns: readonly ScriptedTurn[], hang: boolean) {
    super(turns);
    this.#hang = hang;
  }

  override request(request: ProviderRequest): Promise<ProviderTurn> {
    if (!this.#hang || this.remaining > 0) return super.request(request);
    this.requests.push(request);
    const { signal } = request;
    return new Promise((_resolve, reject) => {
      const stop = () => {
        reject(new Error('The hanging scripted request was given up.', { cause: signal.reason }));
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
  }
}

/** Builds the adapter a scripted harness opens. */
export type ScriptedAdapterFactory = (
  script: readonly ScriptedTurn[],
  hang: boolean,
) => ScriptedAdapter;

/**
 * A harness serving the script in process: `requests()` are the
 * `ProviderRequest`s the adapter received, and their tool results are the
 * conversation's `tool` messages.
 */
export function scriptedHarness(
  name = 'ScriptedAdapter',
  build: ScriptedAdapterFactory = (script, hang) => new HangingScriptedAdapter(script, hang),
): AdapterHarness {
  return {
    name,
    open(script, options = {}) {
      const adapter = build(script, options.hang === true);
      return Promise.resolve({
        adapter,
        requests: () => adapter.requests,
        close: () => Promise.resolve(),
      });
    },
    toolResultsOf(request): FedBackToolResult[] {
      return (request as ProviderRequest).messages.flatMap((message) =>
        message.role === 'tool' ? [{ callId: message.callId, content: message.content }] : [],
      );
    },
  };
}
