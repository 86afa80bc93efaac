import {
  partsOfTurn,
  ProviderAdapter,
  providerCapabilities,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderStreamPart,
  type ProviderTurn,
  TokenUsage,
} from 'affordance/provider';

/** What a {@link MemberStub} does with one request: answer, throw, or stream some parts then throw. */
export type Outcome =
  | ProviderTurn
  | { readonly throws: Error }
  | { readonly partsThenThrow: readonly ProviderStreamPart[]; readonly throws: Error };

/**
 * A test adapter that plays one provider: answers each request with the next
 * outcome and records what it was sent (the conversation it received
 * included), like `ScriptedAdapter` but able to fail and to return provider items.
 */
export class MemberStub extends ProviderAdapter {
  override readonly capabilities: ProviderCapabilities;
  readonly requests: ProviderRequest[] = [];
  readonly #outcomes: Outcome[];

  constructor(
    override readonly name: string,
    override readonly model: string | undefined,
    outcomes: readonly Outcome[],
    capabilities: Parameters<typeof providerCapabilities>[0] = { streaming: true },
  ) {
    super();
    this.#outcomes = [...outcomes];
    this.capabilities = providerCapabilities(capabilities);
  }

  get remaining(): number {
    return this.#outcomes.length;
  }

  push(...outcomes: Outcome[]): void {
    this.#outcomes.push(...outcomes);
  }

  override request(request: ProviderRequest): Promise<ProviderTurn> {
    this.requests.push(request);
    const next = this.#next(request);
    if ('throws' in next) return Promise.reject(next.throws);
    return Promise.resolve(next);
  }

  override async *stream(request: ProviderRequest): AsyncGenerator<ProviderStreamPart> {
    this.requests.push(request);
    const next = this.#next(request);
    if ('partsThenThrow' in next) {
      for (const part of next.partsThenThrow) yield part;
      throw next.throws;
    }
    await Promise.resolve();
    if ('throws' in next) throw next.throws;
    yield* partsOfTurn(next);
  }

  #next(request: ProviderRequest): Outcome {
    const next = this.#outcomes.shift();
    if (next === undefined) {
      throw new Error(`${this.name}: no outcome left for turn ${request.turn}`);
    }
    return next;
  }
}

/** An error shaped like an SDK's HTTP error (`status`), as any adapter may throw. */
export function httpError(status: number, message = `HTTP ${status}`): Error {
  return Object.assign(new Error(message), { status });
}

/** An error shaped like a refused connection under `fetch` (`TypeError: fetch failed`, cause `ECONNREFUSED`). */
export function refused(): Error {
  const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
    code: 'ECONNREFUSED',
  });
  return new TypeError('fetch failed', { cause });
}

/** A final answer. */
export function answer(text: string, extra: Partial<ProviderTurn> = {}): ProviderTurn {
  return {
    text,
    toolCalls: [],
    finishReason: 'stop',
    usage: new TokenUsage({ inputTokens: 10, outputTokens: 3 }),
    ...extra,
  };
}

/** A turn calling `name` with `args`, carrying `providerItems`. */
export function callTurn(
  callId: string,
  name: string,
  args: object,
  providerItems: readonly unknown[] = [],
): ProviderTurn {
  return {
    text: null,
    toolCalls: [{ callId, name, arguments: JSON.stringify(args) }],
    finishReason: 'tool_calls',
    providerItems,
    usage: new TokenUsage({ inputTokens: 20, outputTokens: 5 }),
  };
}
