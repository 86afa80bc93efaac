import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { describeThrown } from '../../core/errors/describe-thrown.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';
import { ProviderAdapter } from '../provider-adapter.js';
import {
  PROVIDER_SEAM_VERSION,
  providerCapabilities,
  type ProviderCapabilities,
} from '../provider-capabilities.js';
import { type ToolSpec, toolSpecOf } from '../tool-spec.js';

/** A member adapter of a composite, with the id its provider items are kept under. */
export interface MemberAdapter {
  /** The adapter. */
  readonly adapter: ProviderAdapter;
  /**
   * Names the member in events and keeps its provider items apart from the
   * others': items go back only to a member with the same id. Default
   * `name/model` (`openai/gpt-5-mini`), or `name` when the adapter has no model.
   * Give two members the same id only when each can read the other's items
   * (the same provider and model behind two keys or regions).
   */
  readonly id?: string;
}

/** A member as the composite keeps it. @internal */
export interface Member {
  readonly adapter: ProviderAdapter;
  readonly id: string;
  readonly index: number;
}

/**
 * What {@link FallbackAdapter} and {@link RoutingAdapter} share: members, and
 * the capabilities, tool schemas and tool checks every member can honour,
 * since any member may serve any turn of an evaluation.
 *
 * Capabilities combine as the weakest member's: `strictTools`, `nativeTools`,
 * `parallelToolCalls` and native `structuredOutput` only when every member has
 * them (a prompt is checked once, before the first request, against what any
 * member may be asked to do); `streaming` when any member streams (a member
 * that does not yields its turn whole, as every adapter's `stream` may).
 */
export abstract class CompositeAdapter extends ProviderAdapter {
  /** What every member can honour (see the class comment). */
  override readonly capabilities: ProviderCapabilities;
  /** The members, in order. @internal */
  protected readonly members: readonly Member[];

  protected constructor(members: readonly (ProviderAdapter | MemberAdapter)[], subject: string) {
    super();
    this.members = checkMembers(members, subject);
    this.capabilities = combinedCapabilities(this.members.map((member) => member.adapter));
  }

  /** The member adapters, in order. */
  get adapters(): readonly ProviderAdapter[] {
    return this.members.map((member) => member.adapter);
  }

  /**
   * The spec every member sends: the first member's when all members agree
   * on whether the tool is strict, else the standard (non-strict) schema,
   * which every provider takes.
   */
  override toolSpec(tool: ToolDefinition, descriptions?: ReadonlyMap<string, string>): ToolSpec {
    const specs = this.members.map((member) => member.adapter.toolSpec(tool, descriptions));
    const first = specs[0] as ToolSpec;
    if (specs.every((spec) => spec.strict === first.strict)) return first;
    return toolSpecOf(tool, false, descriptions);
  }

  /** Every member checks the tools: any of them may serve a turn. */
  override validate(tools: readonly ToolDefinition[]): void {
    for (const member of this.members) member.adapter.validate(tools);
  }
}

/** The capabilities every adapter of `adapters` can honour (see {@link CompositeAdapter}). @internal */
export function combinedCapabilities(adapters: readonly ProviderAdapter[]): ProviderCapabilities {
  const all = (pick: (capabilities: ProviderCapabilities) => boolean): boolean =>
    adapters.every((adapter) => pick(adapter.capabilities));
  return providerCapabilities({
    strictTools: all((c) => c.strictTools),
    nativeTools: all((c) => c.nativeTools),
    parallelToolCalls: all((c) => c.parallelToolCalls),
    structuredOutput: all((c) => c.structuredOutput === 'native') ? 'native' : 'text',
    streaming: adapters.some((adapter) => adapter.capabilities.streaming),
  });
}

function checkMembers(
  members: readonly (ProviderAdapter | MemberAdapter)[],
  subject: string,
): Member[] {
  if (!Array.isArray(members) || members.length === 0) {
    throw new ConfigurationError({
      subject,
      problem: 'needs at least one adapter, got none.',
      fix: 'Pass the adapters in order, e.g. new FallbackAdapter([openai, anthropic]).',
    });
  }
  return members.map((entry, index) => {
    const direct = isAdapter(entry);
    const adapter: unknown = direct ? entry : (entry as MemberAdapter | undefined)?.adapter;
    if (!isAdapter(adapter)) {
      throw new ConfigurationError({
        subject,
        problem: `adapter ${index + 1} is not a ProviderAdapter.`,
        fix: 'Pass ProviderAdapter instances (new OpenAIAdapter(...)), or { adapter, id } entries.',
      });
    }
    // Typed as this build's version; an adapter built for another version says otherwise at run time.
    const version: unknown = adapter.capabilities.seamVersion;
    if (version !== PROVIDER_SEAM_VERSION) {
      throw new ConfigurationError({
        subject,
        problem: `adapter '${adapter.name}' implements provider seam version ${describeThrown(version)}, this build speaks ${PROVIDER_SEAM_VERSION}.`,
        fix: 'Use an adapter built for this version of affordance.',
      });
    }
    const given = direct ? undefined : (entry as MemberAdapter).id;
    if (given !== undefined && (typeof given !== 'string' || given === '')) {
      throw new ConfigurationError({
        subject,
        problem: `adapter ${index + 1} ('${adapter.name}') has an id that is not a non-empty string.`,
        fix: "Give it an id such as 'openai-eu', or leave id out for name/model.",
      });
    }
    const id = given ?? memberId(adapter);
    return Object.freeze({ adapter, id, index });
  });
}

/** `name/model`, or `name` without a model. */
function memberId(adapter: ProviderAdapter): string {
  return adapter.model === undefined ? adapter.name : `${adapter.name}/${adapter.model}`;
}

// Duck-typed rather than `instanceof`, so an adapter from another copy of the package is accepted.
function isAdapter(value: unknown): value is ProviderAdapter {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<
    Record<'request' | 'stream' | 'toolSpec' | 'validate', unknown>
  >;
  return (
    typeof candidate.request === 'function' &&
    typeof candidate.stream === 'function' &&
    typeof candidate.toolSpec === 'function' &&
    typeof candidate.validate === 'function' &&
    typeof (value as { capabilities?: unknown }).capabilities === 'object'
  );
}
