import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { describeThrown } from '../../core/errors/describe-thrown.js';
import type { ProviderTurn } from '../conversation.js';
import type { ProviderAdapter } from '../provider-adapter.js';
import type { ProviderRequest } from '../provider-request.js';
import type { ProviderStreamPart } from '../provider-stream-part.js';
import { CompositeAdapter, type Member, type MemberAdapter } from './composite-adapter.js';
import type { FallbackEvent } from './fallback-event.js';
import { requestFor, servedTurn } from './served-items.js';

/**
 * Chooses the route of one request: a key of `routes`. It reads the request:
 * the prompt (`request.prompt.ns`, `key`, `name`), the tools offered
 * (`request.tools`), the turn, the structured output asked for, the conversation.
 */
export type RouteChooser<K extends string> = (request: ProviderRequest) => K;

/** Options of a {@link RoutingAdapter}. */
export interface RoutingAdapterOptions<K extends string> {
  /** The adapters by route key; one adapter may serve several keys. */
  readonly routes: Readonly<Record<K, ProviderAdapter | MemberAdapter>>;
  /** Picks the route of each request. */
  readonly route: RouteChooser<K>;
  /** The adapter's `name` in events and saved approval states. Default `routing`. */
  readonly name?: string;
  /** Reports provider items left out when a route's member did not produce them (`items-dropped`). Must not throw. */
  readonly onEvent?: (event: FallbackEvent) => void;
}

const subject = 'RoutingAdapter';

/**
 * An adapter that sends each request to the adapter its `route` function
 * picks from the request, e.g. a cheaper model for one prompt namespace, a
 * model with native tools when the request offers one, another for the turns
 * after the first. Routes may change between the turns of one evaluation:
 * the conversation carries across, provider items going back only to the
 * member that produced them (see {@link FallbackAdapter}), and each turn names
 * the provider and model that served it. Capabilities are those every route
 * can honour (see {@link CompositeAdapter}). Put a {@link FallbackAdapter} on
 * a route to fall back within it.
 *
 * @example
 * new RoutingAdapter({
 *   routes: { cheap: miniModel, deep: largeModel },
 *   route: (request) => (request.prompt.ns === 'support/triage' ? 'cheap' : 'deep'),
 * });
 */
export class RoutingAdapter<K extends string = string> extends CompositeAdapter {
  override readonly name: string;
  readonly #routes: ReadonlyMap<string, Member>;
  readonly #route: RouteChooser<K>;
  readonly #onEvent: ((event: FallbackEvent) => void) | undefined;

  constructor(options: RoutingAdapterOptions<K>) {
    const keys = Object.keys(options.routes);
    const entries = keys.map(
      (key) => (options.routes as Record<string, ProviderAdapter | MemberAdapter>)[key],
    );
    super(entries as (ProviderAdapter | MemberAdapter)[], subject);
    if (typeof options.route !== 'function') {
      throw new ConfigurationError({
        subject,
        problem: `options.route must be a function of the request, got ${typeof options.route}.`,
        fix: "Pass e.g. route: (request) => (request.turn === 0 ? 'deep' : 'cheap').",
      });
    }
    const name = options.name ?? 'routing';
    if (typeof name !== 'string' || name.trim() === '') {
      throw new ConfigurationError({
        subject,
        problem: `options.name must be a non-empty string, got ${JSON.stringify(name)}.`,
        fix: "Pass e.g. name: 'routing', or leave it out.",
      });
    }
    this.name = name;
    this.#routes = new Map(keys.map((key, index) => [key, this.members[index] as Member]));
    this.#route = options.route;
    this.#onEvent = options.onEvent;
  }

  /** The route keys, in the order given. */
  get routeKeys(): readonly string[] {
    return [...this.#routes.keys()];
  }

  /** Sends `request` to the adapter of the route its `route` function picks. */
  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    const member = this.#memberFor(request);
    const turn = await member.adapter.request(requestFor(request, member.id, this.#onEvent));
    return servedTurn(turn, member.id, member.adapter.name, member.adapter.model);
  }

  /** Streams from the adapter of the route its `route` function picks. */
  override async *stream(
    request: ProviderRequest,
  ): AsyncGenerator<ProviderStreamPart, void, undefined> {
    const member = this.#memberFor(request);
    const { adapter } = member;
    for await (const part of adapter.stream(requestFor(request, member.id, this.#onEvent))) {
      yield part.type === 'turn'
        ? { type: 'turn', turn: servedTurn(part.turn, member.id, adapter.name, adapter.model) }
        : part;
    }
  }

  #memberFor(request: ProviderRequest): Member {
    const key: unknown = this.#route(request);
    const member = typeof key === 'string' ? this.#routes.get(key) : undefined;
    if (member !== undefined) return member;
    throw new ConfigurationError({
      subject: `${subject} '${this.name}'`,
      problem: `the route function chose '${describeThrown(key)}' for turn ${request.turn} of '${request.prompt.label}', which is not a route.`,
      fix: `Return one of the route keys: ${this.routeKeys.map((k) => `'${k}'`).join(', ')}.`,
    });
  }
}
