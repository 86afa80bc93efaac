import { describeThrown } from '../core/errors/describe-thrown.js';
import { isThenable } from '../core/is-thenable.js';
import { PolicyDecision } from '../tools/policy-decision.js';
import type { ToolContext } from '../tools/tool-context.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import type { PolicyCall, PolicyRef, ToolPolicy } from '../tools/tool-policy.js';
import { ToolResult } from '../tools/tool-result.js';
import type { ApprovalDecision } from './approval/approval-decision.js';
import type { ToolCallScope } from './scope/tool-call-scope.js';

/** What the gate says about a call: run it, refuse it, or wait for a person. @internal */
export type GateVerdict =
  | { readonly kind: 'run'; readonly policies: readonly ToolPolicy[] }
  | { readonly kind: 'deny'; readonly result: ToolResult }
  | { readonly kind: 'approval'; readonly reason: string };

/**
 * Checks one call against its policies and its tool's approval rule, in the
 * call's own scope (so a class policy can inject the call's services). A
 * person's rejection refuses the call outright; otherwise the first denial
 * wins, a policy that throws denies, and a call that some policy or the tool
 * says needs approval waits unless `decision` approves it. Synchronous while
 * every check is (a promise only once one returns a promise). @internal
 */
export function checkGate(
  tool: ToolDefinition,
  refs: readonly PolicyRef[],
  params: unknown,
  callScope: ToolCallScope,
  decision: ApprovalDecision | undefined,
  probing: boolean,
): GateVerdict | Promise<GateVerdict> {
  if (decision !== undefined && !decision.approved) {
    return { kind: 'deny', result: ToolResult.error(rejectionMessage(tool.name, decision)) };
  }
  return new GateRun(tool, refs, params, callScope, decision, probing).from(0);
}

/** One call's way through the gate, policy by policy; resumes after an awaited check. */
class GateRun {
  readonly #tool: ToolDefinition;
  readonly #refs: readonly PolicyRef[];
  readonly #call: PolicyCall;
  readonly #callScope: ToolCallScope;
  readonly #decision: ApprovalDecision | undefined;
  readonly #policies: ToolPolicy[] = [];
  readonly #reasons: string[] = [];

  constructor(
    tool: ToolDefinition,
    refs: readonly PolicyRef[],
    params: unknown,
    callScope: ToolCallScope,
    decision: ApprovalDecision | undefined,
    probing: boolean,
  ) {
    this.#tool = tool;
    this.#refs = refs;
    this.#call = { tool, params, context: callScope.context, probing };
    this.#callScope = callScope;
    this.#decision = decision;
  }

  /** Checks the policies from `index` on, then the approval rule. */
  from(index: number): GateVerdict | Promise<GateVerdict> {
    for (let at = index; at < this.#refs.length; at += 1) {
      const ref = this.#refs[at] as PolicyRef;
      let policy: ToolPolicy | undefined;
      let returned: unknown;
      try {
        policy = resolvePolicy(ref, this.#callScope);
        this.#policies.push(policy);
        returned = policy.check?.(this.#call);
      } catch (error) {
        return this.#failed(policy === undefined ? nameOfRef(ref) : policyName(policy), error);
      }
      if (isThenable(returned)) return this.#awaitCheck(policy, returned, at + 1);
      const denied = this.#judge(policy, returned);
      if (denied !== undefined) return denied;
    }
    const approval = this.#tool.approval;
    if (approval === undefined || approval === true) return this.#verdict(approval === true);
    let needed: boolean | Promise<boolean>;
    try {
      needed = approval(this.#call.params, this.#call.context);
    } catch (error) {
      return this.#approvalFailed(error);
    }
    return isThenable(needed)
      ? needed.then(
          (value) => this.#verdict(value),
          (error: unknown) => this.#approvalFailed(error),
        )
      : this.#verdict(needed);
  }

  async #awaitCheck(
    policy: ToolPolicy,
    returned: PromiseLike<unknown>,
    next: number,
  ): Promise<GateVerdict> {
    let decision: unknown;
    try {
      decision = await returned;
    } catch (error) {
      return this.#failed(policyName(policy), error);
    }
    return this.#judge(policy, decision) ?? (await this.from(next));
  }

  /** A denial when `returned` denies (or is not a decision); notes a request for approval. */
  #judge(policy: ToolPolicy, returned: unknown): GateVerdict | undefined {
    const decision = returned ?? PolicyDecision.allow();
    if (!(decision instanceof PolicyDecision)) {
      return this.#failed(policyName(policy), new TypeError(notADecision(decision)));
    }
    if (decision.verdict === 'deny') {
      const allow = decision.allowWhen === undefined ? '' : ` To proceed: ${decision.allowWhen}`;
      return deny(
        `Policy '${policyName(policy)}' denied this call of '${this.#tool.name}': ${decision.reason}${allow}`,
      );
    }
    if (decision.verdict === 'approval') this.#reasons.push(decision.reason);
    return undefined;
  }

  /** The verdict once every policy allowed the call: run it, or wait when approval is needed and not given. */
  #verdict(toolNeedsApproval: boolean): GateVerdict {
    const reasons = this.#reasons;
    if (toolNeedsApproval) reasons.unshift(`Tool '${this.#tool.name}' needs a person's approval.`);
    if (reasons.length > 0 && this.#decision?.approved !== true) {
      return { kind: 'approval', reason: reasons.join(' ') };
    }
    return { kind: 'run', policies: this.#policies };
  }

  #failed(name: string, error: unknown): GateVerdict {
    return deny(
      `Policy '${name}' could not check this call of '${this.#tool.name}', so it was refused: ${describeThrown(error)}`,
    );
  }

  #approvalFailed(error: unknown): GateVerdict {
    return deny(
      `The approval rule of '${this.#tool.name}' failed, so the call was refused: ${describeThrown(error)}`,
    );
  }
}

/**
 * Runs the `afterResult` hooks of the policies that allowed a successful call;
 * returns the failed result to record instead when one throws. Synchronous
 * unless a hook returns a promise. @internal
 */
export function afterResult(
  tool: ToolDefinition,
  policies: readonly ToolPolicy[],
  params: unknown,
  context: ToolContext,
  result: ToolResult,
  from = 0,
): ToolResult | undefined | Promise<ToolResult | undefined> {
  for (let at = from; at < policies.length; at += 1) {
    const policy = policies[at] as ToolPolicy;
    if (policy.afterResult === undefined) continue;
    let returned: unknown;
    try {
      returned = policy.afterResult({ tool, params, context, probing: false }, result);
    } catch (error) {
      return undone(tool, policy, error);
    }
    if (isThenable(returned)) {
      return Promise.resolve(returned).then(
        () => afterResult(tool, policies, params, context, result, at + 1),
        (error: unknown) => undone(tool, policy, error),
      );
    }
  }
  return undefined;
}

function undone(tool: ToolDefinition, policy: ToolPolicy, error: unknown): ToolResult {
  return ToolResult.error(
    `Tool '${tool.name}' ran, but policy '${policyName(policy)}' failed after it, so the call was undone: ${describeThrown(error)}`,
  );
}

function deny(message: string): GateVerdict {
  return { kind: 'deny', result: ToolResult.error(message) };
}

function rejectionMessage(tool: string, decision: ApprovalDecision): string {
  const said = decision.message?.trim();
  return `A person rejected this call of '${tool}'${said === undefined || said === '' ? '.' : `: ${said}`}`;
}

/** An instance as it is; a class resolved in the call's scope (bound there when the application did not). */
function resolvePolicy(ref: PolicyRef, callScope: ToolCallScope): ToolPolicy {
  if (typeof ref !== 'function') return ref;
  const container = callScope.container;
  const id = ref as unknown as new () => ToolPolicy;
  if (!container.isBound(id)) container.bind(id).toSelf();
  return container.get(id);
}

/** How denials and records name a policy. @internal */
export function policyName(policy: ToolPolicy): string {
  return policy.name ?? (policy.constructor as { name?: string }).name ?? 'policy';
}

function nameOfRef(ref: PolicyRef): string {
  return typeof ref === 'function' ? ref.name : policyName(ref);
}

function notADecision(value: unknown): string {
  return `check() returned ${value === null ? 'null' : typeof value}, not a PolicyDecision (use PolicyDecision.allow(), deny(reason) or requireApproval(reason)).`;
}
