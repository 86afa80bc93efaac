import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { PolicyDecision } from './policy-decision.js';
import type { ToolContext } from './tool-context.js';
import type { DataClass } from '../core/class-type.js';
import type { ToolResult } from './tool-result.js';

/** What a policy sees of the tool called (a `ToolDefinition`). */
export interface PolicyTool {
  /** The tool's name as the model sees it. */
  readonly name: string;
  /** The tool's description. */
  readonly description: string;
  /** The params class, or `undefined` for a tool without arguments or with Standard Schema params. */
  readonly paramsType: DataClass | undefined;
  /** Whether the tool only reads state. */
  readonly readOnly: boolean;
}

/** The call a {@link ToolPolicy} is asked about. */
export interface PolicyCall<P = unknown> {
  /** The tool the model called. */
  readonly tool: PolicyTool;
  /** The validated params (`undefined` for a tool without arguments). */
  readonly params: P;
  /** The call's context: its id, session, resources and services. */
  readonly context: ToolContext;
  /**
   * `true` when the runtime only asks whether the call would need approval:
   * the turn is pausing at an earlier call, and this one will be checked
   * again before it runs. A policy that keeps count of the calls it let
   * through should not count this one.
   */
  readonly probing: boolean;
}

/**
 * A gate on tool calls, checked after the arguments are validated and before
 * the handler runs. Declare policies on a tool (`@Tool({ policies })`,
 * `new ToolDefinition({ policies })`), a section (`@Section({ policies })`,
 * `new MarkdownSection({ policies })`) or a prompt (`new Prompt({ policies })`):
 * a call is checked against its tool's, then its sections' (innermost first),
 * then its prompt's. Policies compose by conjunction: the first denial wins
 * and the handler never runs; a policy that throws denies (fails closed).
 * A denied call is a failed result the model reads, its state is restored,
 * and its `ToolInvoked` records outcome `denied`. (A `readOnly` tool's call
 * takes no snapshot, so nothing a policy writes while checking it is undone:
 * write state from `afterResult`, not from `check`.)
 */
export interface ToolPolicy {
  /** Names the policy in denials and records; defaults to the class name. */
  readonly name?: string | undefined;
  /** Decides whether the call may run (sync or async); omit to allow every call. */
  check?(call: PolicyCall): PolicyDecision | Promise<PolicyDecision>;
  /**
   * Runs after a successful result, before the call is recorded (e.g. to note
   * what was read). Throwing fails the call: its state is restored.
   */
  afterResult?(call: PolicyCall, result: ToolResult): void | Promise<void>;
}

/**
 * A policy as declared: an instance, or an injectable class resolved from the
 * container for each call (so it can inject services, the `Session`, ...).
 */
export type PolicyRef = ToolPolicy | (abstract new (...args: never[]) => ToolPolicy);

/**
 * Whether a call needs a person's approval before it runs: `true` for every
 * call, or a predicate of the validated params and the call's context.
 */
export type ToolApproval<P = unknown> =
  | boolean
  | {
      needsApproval(params: P, context: ToolContext): boolean | Promise<boolean>;
    }['needsApproval'];

/** Checks a policies option, naming `subject` when it is not a list of policies. @internal */
export function checkPolicies(subject: string, policies: unknown): readonly PolicyRef[] {
  if (policies === undefined) return [];
  if (!Array.isArray(policies)) {
    throw new ConfigurationError({
      subject,
      problem: `policies must be an array, got ${typeof policies}.`,
      fix: 'Pass a list of policies: objects with a check or afterResult method, or injectable classes of them (check returns a PolicyDecision).',
    });
  }
  policies.forEach((policy: unknown, index) => {
    const ok =
      typeof policy === 'function' ||
      (typeof policy === 'object' &&
        policy !== null &&
        (typeof (policy as ToolPolicy).check === 'function' ||
          typeof (policy as ToolPolicy).afterResult === 'function'));
    if (!ok) {
      throw new ConfigurationError({
        subject,
        problem: `policies[${index}] is not a ToolPolicy.`,
        fix: 'Pass an object with a check or afterResult method (see PolicyDecision for what check returns), or an injectable class of one.',
      });
    }
  });
  return Object.freeze([...(policies as PolicyRef[])]);
}
