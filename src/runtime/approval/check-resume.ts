import { boundText } from '../../core/errors/bound-text.js';
import { describeThrown } from '../../core/errors/describe-thrown.js';
import { EvaluationStateError } from '../../core/errors/evaluation-state-error.js';
import { nestsDeeperThan } from '../../core/nests-deeper-than.js';
import type { Prompt } from '../../prompt/prompt.js';
import type { RenderedPrompt } from '../../prompt/rendered-prompt.js';
import type { ProviderAdapter } from '../../provider/provider-adapter.js';
import type { Session } from '../../session/session.js';
import type { ApprovalDecision } from './approval-decision.js';
import type { EvaluationRecovery, ResumeRequest } from './resume-request.js';
import {
  EVALUATION_STATE_FORMAT,
  EVALUATION_STATE_VERSION,
  type EvaluationState,
} from './evaluation-state.js';
import { MAX_FAILURE_TEXT_LENGTH } from '../events/event-fields.js';
import { checkSavedCalls } from './check-saved-calls.js';
import { adapterName, MAX_STATE_DEPTH, promptContractHash } from './save-evaluation-state.js';
import type { StateSigner } from './state-signer.js';

/** A resume request that passed every check made before rendering. @internal */
export interface CheckedResume {
  readonly state: EvaluationState;
  /** The decisions for the remaining calls, by call id (this resume's and earlier ones'). */
  readonly decisions: ReadonlyMap<string, ApprovalDecision>;
  /** Set when recovering from a checkpoint of a process that died. */
  readonly recovery: EvaluationRecovery | undefined;
}

/** What a resume is checked against. @internal */
export interface ResumeTarget {
  readonly prompt: Prompt;
  readonly adapter: ProviderAdapter;
  readonly session: Session | undefined;
  /** Checks the state's signature (`RuntimeOptions.stateSecret`, `unsignedStates`). */
  readonly signer: StateSigner;
}

/**
 * Checks a resume request before anything runs: the state's format, version,
 * depth and signature, that what it runs is what the approver saw, that it
 * belongs to this prompt, adapter and session (at the version it paused at),
 * and that the decisions decide exactly its pending calls. @internal
 * @throws EvaluationStateError naming what does not match and what to do.
 */
export function checkResume(request: ResumeRequest, target: ResumeTarget): CheckedResume {
  const state = checkShape(request.state, target.prompt);
  const subject = `Resuming evaluation ${state.evaluationId} of ${target.prompt.label}`;
  const refuse = (problem: string, fix: string): EvaluationStateError =>
    new EvaluationStateError({ subject, problem, fix });
  target.signer.check(state, refuse);
  checkSavedCalls(state, refuse);
  if (state.prompt.ns !== target.prompt.ns || state.prompt.key !== target.prompt.key) {
    throw refuse(
      `the state was saved by prompt ${state.prompt.ns}/${state.prompt.key}.`,
      `Resume it with that prompt: runtime.resume(thatPrompt, state, decisions, { session }).`,
    );
  }
  const adapter = adapterName(target.adapter);
  if (state.adapter !== adapter) {
    throw refuse(
      `the state was saved with the '${state.adapter}' adapter, and this evaluation would answer with '${adapter}'; the conversation holds the first provider's items.`,
      `Resume with a '${state.adapter}' adapter (options.adapter or the one bound to ProviderAdapter).`,
    );
  }
  const recovery = checkRecovery(request.recovery, refuse);
  checkSession(state, target.session, recovery === undefined, refuse);
  return { state, decisions: checkDecisions(state, request.decisions, refuse), recovery };
}

/**
 * Checks that the prompt as rendered now offers the tools the state was saved
 * with (same names, descriptions, params and results). @internal
 */
export function checkContract(
  state: EvaluationState,
  rendered: RenderedPrompt,
  label: string,
): void {
  if (promptContractHash(rendered) === state.prompt.contractHash) return;
  throw new EvaluationStateError({
    subject: `Resuming evaluation ${state.evaluationId} of ${label}`,
    problem:
      "the prompt's tools changed since the evaluation paused (a tool was added, removed or renamed, or its description, params or result changed), or its sections render other tools for these params and this session.",
    fix: 'Resume with the prompt as it was when the evaluation paused, and the same params; or start a new evaluation.',
  });
}

type Refuse = (problem: string, fix: string) => EvaluationStateError;

function checkShape(value: unknown, prompt: Prompt): EvaluationState {
  const refuse = (problem: string): EvaluationStateError =>
    new EvaluationStateError({
      subject: `Resuming an evaluation of ${prompt.label}`,
      problem,
      fix: 'Pass the `state` of the interrupted response (response.interruption.state), saved and read back unchanged.',
    });
  if (!isRecord(value) || value['format'] !== EVALUATION_STATE_FORMAT) {
    throw refuse('the value is not a saved evaluation state.');
  }
  if (value['version'] !== EVALUATION_STATE_VERSION) {
    throw new EvaluationStateError({
      subject: `Resuming an evaluation of ${prompt.label}`,
      problem: `the state has layout version ${String(value['version'])}; this release of affordance reads version ${EVALUATION_STATE_VERSION}.`,
      fix: 'Resume it with the affordance release that saved it, or start a new evaluation.',
    });
  }
  const lists = ['messages', 'remaining', 'pending', 'decided'].map((key) => value[key]);
  const records = ['integrity', 'session', 'prompt'].map((key) => value[key]);
  if (
    typeof value['evaluationId'] !== 'string' ||
    typeof value['stateId'] !== 'string' ||
    !records.every(isRecord) ||
    !lists.every(Array.isArray)
  ) {
    throw refuse('the state is missing fields.');
  }
  // Before anything walks it recursively (the signature's canonical JSON).
  if (nestsDeeperThan(value, MAX_STATE_DEPTH)) {
    throw refuse(`the state is nested deeper than ${MAX_STATE_DEPTH} levels; no saved state is.`);
  }
  return value as unknown as EvaluationState;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkRecovery(
  recovery: EvaluationRecovery | undefined,
  refuse: Refuse,
): EvaluationRecovery | undefined {
  if (recovery === undefined) return undefined;
  // Read from JSON, so checked rather than trusted.
  const started: unknown = (recovery as Partial<EvaluationRecovery> | null)?.startedCalls;
  if (!Array.isArray(started) || !started.every((id) => typeof id === 'string')) {
    throw refuse(
      'recovery.startedCalls must be an array of call ids.',
      'Pass { startedCalls: [...] } with the ids the checkpoint saw start (callsStarting), or [] when none.',
    );
  }
  return { startedCalls: [...started] };
}

function checkSession(
  state: EvaluationState,
  session: Session | undefined,
  sameVersion: boolean,
  refuse: Refuse,
): void {
  const saved = state.session;
  if (session === undefined) {
    throw refuse(
      `no session was given; the evaluation records in session ${saved.sessionId}.`,
      'Pass the session the evaluation ran with: runtime.resume(prompt, state, decisions, { session }).',
    );
  }
  if (session.sessionId !== saved.sessionId) {
    throw refuse(
      `the state belongs to session ${saved.sessionId}, not ${session.sessionId}.`,
      `Pass session ${saved.sessionId}, the one the evaluation ran with.`,
    );
  }
  if (sameVersion && session.version < saved.version) {
    throw refuse(
      `session ${saved.sessionId} is at version ${session.version}, and the evaluation paused at version ${saved.version}: this is not the session the evaluation paused in, but a new, empty session or a stale copy with the same id (e.g. made anew in another process).`,
      'Pass the same Session instance the evaluation paused in (response.interruption.session), e.g. kept in this process by its id until the person decides; to resume in another process, persist the session with affordance/durable (commit the DurableSession after the pause, SessionPersistence.open it where you resume and pass its session), or run the evaluation as a job (affordance/bullmq, EvaluationQueue.resume).',
    );
  }
  if (sameVersion && session.version !== saved.version) {
    throw refuse(
      `the state is stale: session ${saved.sessionId} changed since the evaluation paused (version ${saved.version} then, ${session.version} now), e.g. because this state was already resumed.`,
      'Resume the newest state of this evaluation (the one its last resume returned), or start a new evaluation.',
    );
  }
}

function checkDecisions(
  state: EvaluationState,
  decisions: unknown,
  refuse: Refuse,
): ReadonlyMap<string, ApprovalDecision> {
  if (!Array.isArray(decisions)) {
    throw refuse(
      'decisions must be an array.',
      'Pass one { callId, approved, message? } per pending call.',
    );
  }
  const pending = new Set(state.pending.map((call) => call.callId));
  const byId = new Map<string, ApprovalDecision>();
  for (const decision of state.decided) byId.set(decision.callId, decision);
  for (const given of decisions as unknown[]) {
    const decision = given as Partial<ApprovalDecision> | null;
    const id = decision?.callId;
    if (typeof id !== 'string' || typeof decision?.approved !== 'boolean') {
      throw refuse(
        `a decision is not { callId: string, approved: boolean }: ${shown(given)}.`,
        'Pass one { callId, approved, message? } per pending call.',
      );
    }
    if (!pending.has(id)) {
      throw refuse(
        `the decision for call '${id}' names no pending call (pending: ${[...pending].join(', ')}).`,
        'Decide only the calls listed in state.pending, by their callId.',
      );
    }
    if (byId.has(id) && !state.decided.some((done) => done.callId === id)) {
      throw refuse(`call '${id}' is decided twice.`, 'Give one decision per pending call.');
    }
    checkMessage(id, decision.message, refuse);
    byId.set(id, decision as ApprovalDecision);
  }
  const undecided = [...pending].filter((id) => !byId.has(id));
  if (undecided.length > 0) {
    throw refuse(
      `no decision was given for pending call(s) ${undecided.join(', ')}.`,
      'Approve or reject every pending call: the evaluation cannot go on until each is decided.',
    );
  }
  return byId;
}

/**
 * A rejection's message reaches the model as the call's failed result, so it
 * is text and bounded as every failed result is (`MAX_FAILURE_TEXT_LENGTH`,
 * docs/guide/guarantees.md).
 */
function checkMessage(id: string, message: unknown, refuse: Refuse): void {
  if (message === undefined) return;
  if (typeof message !== 'string') {
    throw refuse(
      `the message of the decision for call '${id}' is ${message === null ? 'null' : typeof message}, not a string.`,
      'Pass message as the text the model reads (why the call was rejected, what to do instead), or leave it out.',
    );
  }
  if (message.length > MAX_FAILURE_TEXT_LENGTH) {
    throw refuse(
      `the message of the decision for call '${id}' has ${message.length} characters; the model reads at most ${MAX_FAILURE_TEXT_LENGTH} characters of a call's failed result.`,
      `Shorten the message to what the model needs (at most ${MAX_FAILURE_TEXT_LENGTH} characters).`,
    );
  }
}

/** A decision as the error quotes it: JSON, bounded, never throwing. */
function shown(given: unknown): string {
  try {
    // JSON.stringify returns undefined for undefined and functions, whatever its type says.
    const text: unknown = JSON.stringify(given);
    return boundText(typeof text === 'string' ? text : 'undefined', 200);
  } catch (error) {
    return `a value that is not JSON (${describeThrown(error)})`;
  }
}
