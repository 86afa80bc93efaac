import { describeThrown } from '../core/errors/describe-thrown.js';
import { PolicyDecision } from '../tools/policy-decision.js';
import type { ToolContext } from '../tools/tool-context.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import type { PolicyCall, PolicyRef, ToolPolicy } from '../tools/tool-policy.js';
import { ToolResult } from '../tools/tool-result.js';
import type { ApprovalDecision } from './approval/approval-decision.js';
import type { ToolCallScope } from './scope/evaluation-scope.js';

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
 * says needs approval waits unless `decision` approves it. @internal
 */
export async function checkGate(
  tool: ToolDefinition,
  refs: readonly PolicyRef[],
  params: unknown,
  callScope: ToolCallScope,
  decision: ApprovalDecision | undefined,
): Promise<GateVerdict> {
  if (decision !== undefined && !decision.approved) {
    return { kind: 'deny', result: ToolResult.error(rejectionMessage(tool.name, decision)) };
  }
  const context = callScope.context;
  const call: PolicyCall = { tool, params, context };
  const policies: ToolPolicy[] = [];
  const reasons: string[] = [];
  for (const ref of refs) {
    let policy: ToolPolicy | undefined;
    let verdict: PolicyDecision;
    try {
      policy = resolvePolicy(ref, callScope);
      policies.push(policy);
      verdict = (await policy.check?.(call)) ?? PolicyDecision.allow();
      if (!(verdict instanceof PolicyDecision)) throw new TypeError(notADecision(verdict));
    } catch (error) {
      const name = policy === undefined ? nameOfRef(ref) : policyName(policy);
      return deny(
        `Policy '${name}' could not check this call of '${tool.name}', so it was refused: ${describeThrown(error)}`,
      );
    }
    if (verdict.verdict === 'deny') {
      const allow = verdict.allowWhen === undefined ? '' : ` To proceed: ${verdict.allowWhen}`;
      return deny(
        `Policy '${policyName(policy)}' denied this call of '${tool.name}': ${verdict.reason}${allow}`,
      );
    }
    if (verdict.verdict === 'approval') reasons.push(verdict.reason);
  }
  const own = await toolNeedsApproval(tool, params, context);
  if (typeof own === 'object') return own;
  if (own) reasons.unshift(`Tool '${tool.name}' needs a person's approval.`);
  if (reasons.length > 0 && decision?.approved !== true) {
    return { kind: 'approval', reason: reasons.join(' ') };
  }
  return { kind: 'run', policies };
}

/**
 * Runs the `afterResult` hooks of the policies that allowed a successful call;
 * returns the failed result to record instead when one throws. @internal
 */
export async function afterResult(
  tool: ToolDefinition,
  policies: readonly ToolPolicy[],
  params: unknown,
  context: ToolContext,
  result: ToolResult,
): Promise<ToolResult | undefined> {
  for (const policy of policies) {
    if (policy.afterResult === undefined) continue;
    try {
      await policy.afterResult({ tool, params, context }, result);
    } catch (error) {
      return ToolResult.error(
        `Tool '${tool.name}' ran, but policy '${policyName(policy)}' failed after it, so the call was undone: ${describeThrown(error)}`,
      );
    }
  }
  return undefined;
}

/** Whether the tool's own `approval` asks for a person; a throwing predicate denies. */
async function toolNeedsApproval(
  tool: ToolDefinition,
  params: unknown,
  context: ToolContext,
): Promise<boolean | GateVerdict> {
  const approval = tool.approval;
  if (approval === undefined || approval === true) return approval === true;
  try {
    return await approval(params, context);
  } catch (error) {
    return deny(
      `The approval rule of '${tool.name}' failed, so the call was refused: ${describeThrown(error)}`,
    );
  }
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
