import type { MediaPart } from '../../content/content-part.js';
import type { ToolResult } from '../../tools/tool-result.js';
import type { EvaluationScope } from '../scope/evaluation-scope.js';
import { storeMedia } from './store-media.js';

/** The parts lists already checked and stored (a result passes the policies' hooks once, the store once). */
const stored = new WeakSet<readonly MediaPart[]>();

/**
 * Checks a tool result's media against the runtime's limits and writes its
 * bytes to the `BlobStore`, before the call's `ToolInvoked` refers to them;
 * `undefined` (nothing to wait for) when the result carries none or was
 * stored already. A rejection (a `MediaError` naming the limit, or the
 * store's error) fails the call, which is rolled back; what it stored is
 * deleted again. @internal
 */
export function storeResultMedia(
  scope: EvaluationScope,
  tool: string,
  callId: string,
  result: ToolResult,
): Promise<void> | undefined {
  const parts = result.parts;
  if (parts.length === 0 || stored.has(parts)) return undefined;
  return storeMedia(scope.root, scope, parts, `The result of tool call ${tool} (${callId})`).then(
    () => {
      stored.add(parts);
    },
  );
}
