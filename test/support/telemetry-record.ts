import { PromptExecuted } from '../../src/runtime/events/prompt-executed.js';
import { PromptRendered } from '../../src/runtime/events/prompt-rendered.js';
import { ToolInvoked } from '../../src/runtime/events/tool-invoked.js';
import type { PromptEvent } from '../../src/runtime/events/prompt-event.js';
import type { Session } from '../../src/session/session.js';

/** The telemetry events of a session, in the order they were dispatched. */
export type TelemetryRecord = PromptEvent[];

/**
 * Subscribes to `PromptRendered`, `ToolInvoked` and `PromptExecuted` on the
 * session's dispatcher and returns the list they are appended to as they are
 * dispatched, so events of different slices keep their relative order.
 */
export function recordTelemetry(session: Session): TelemetryRecord {
  const record: TelemetryRecord = [];
  const push = (event: PromptEvent): void => {
    record.push(event);
  };
  session.dispatcher.subscribe(PromptRendered, push);
  session.dispatcher.subscribe(ToolInvoked, push);
  session.dispatcher.subscribe(PromptExecuted, push);
  return record;
}

/**
 * What two runs of the same evaluation must agree on in one event: its type
 * and fields, without the event id, the timestamp, the evaluation id and the
 * duration (which differ from run to run).
 */
export function comparableEvent(event: PromptEvent): Record<string, unknown> {
  const common = {
    type: event.constructor.name,
    promptName: event.promptName,
    promptNs: event.promptNs,
    promptKey: event.promptKey,
    adapter: event.adapter,
    sessionId: event.sessionId,
  };
  if (event instanceof PromptRendered) {
    return { ...common, renderInputs: event.renderInputs, renderedPrompt: event.renderedPrompt };
  }
  if (event instanceof ToolInvoked) {
    return {
      ...common,
      name: event.name,
      callId: event.callId,
      params: event.params,
      rawArguments: event.rawArguments,
      outcome: event.outcome,
      renderedMessage: event.renderedMessage,
      native: event.native,
      result: {
        success: event.result.success,
        message: event.result.message,
        value: event.result.value as unknown,
      },
      usage: event.usage,
    };
  }
  if (event instanceof PromptExecuted) {
    return { ...common, result: event.result, usage: event.usage };
  }
  return common;
}
