import { type Filesystem, FilesystemError, type ToolContext, ToolResult } from '../index.js';

/** What a filesystem tool answers when the evaluation has no `Filesystem` resource. */
export const NO_FILESYSTEM_MESSAGE =
  'No filesystem is bound: pass resources with a Filesystem to evaluate() or installAffordance(), ' +
  'e.g. new ResourceRegistry().bind(Filesystem, { create: () => new InMemoryFilesystem() }).';

/**
 * Runs `work` on the call's filesystem. A refused operation (a `FilesystemError`:
 * missing file, ambiguous edit, size limit...) becomes a failed result carrying its
 * message, so the model can correct the call and the runtime rolls the call back.
 */
export async function withFilesystem<T>(
  context: ToolContext,
  work: (filesystem: Filesystem) => Promise<ToolResult<T>>,
): Promise<ToolResult<T>> {
  const filesystem = context.filesystem;
  if (filesystem === undefined) return ToolResult.error(NO_FILESYSTEM_MESSAGE);
  try {
    return await work(filesystem);
  } catch (error) {
    if (FilesystemError.is(error)) return ToolResult.error(error.message);
    throw error;
  }
}
