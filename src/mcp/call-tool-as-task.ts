import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import type { McpCallRequest } from './mcp-call-request.js';

/** Polling interval when the server names none (the SDK's default). */
const defaultPollMs = 1_000;
/** Longest wait between two polls, whatever interval the server asks for. */
const maxPollMs = 5_000;

/**
 * Calls a tool the server runs only as a task (`execution.taskSupport:
 * 'required'`, task-augmented `tools/call` of the MCP tasks extension, which
 * the SDK marks experimental): creates the task, polls `tasks/get` at the
 * server's interval until it ends, reads its result with `tasks/result`.
 * The call's signal aborts every request and the wait between polls, and
 * cancels the task on the server (`tasks/cancel`, best effort). A task that
 * fails or is cancelled on the server throws, naming its id and status.
 * @internal
 */
export async function callToolAsTask(
  client: Client,
  request: McpCallRequest,
): Promise<CallToolResult> {
  const types = await import('@modelcontextprotocol/sdk/types.js');
  const { signal } = request;
  const created = await client.request(
    { method: 'tools/call', params: { name: request.name, arguments: request.arguments } },
    types.CreateTaskResultSchema,
    { signal, task: {} },
  );
  const tasks = client.experimental.tasks;
  const taskId = created.task.taskId;
  let pollMs = created.task.pollInterval ?? defaultPollMs;
  try {
    for (;;) {
      const task = await tasks.getTask(taskId, { signal });
      if (task.statusMessage !== undefined) {
        request.onProgress({ progress: 0, message: task.statusMessage });
      }
      if (task.status === 'completed' || task.status === 'input_required') {
        // `tasks/result` waits for the end of a task that needs input.
        const result: CallToolResult = await tasks.getTaskResult(
          taskId,
          types.CallToolResultSchema,
          { signal },
        );
        return result;
      }
      if (task.status === 'failed' || task.status === 'cancelled') {
        const why = task.statusMessage === undefined ? '' : `: ${task.statusMessage}`;
        throw new Error(`The task ${taskId} ended ${task.status} on the server${why}.`);
      }
      pollMs = task.pollInterval ?? pollMs;
      await sleep(Math.min(pollMs, maxPollMs), signal);
    }
  } catch (error) {
    if (signal.aborted) void tasks.cancelTask(taskId).catch(() => undefined);
    throw error;
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
