/** What one call sends and listens to. @internal */
export interface McpCallRequest {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly signal: AbortSignal;
  readonly onProgress: (progress: {
    progress: number;
    total?: number | undefined;
    message?: string | undefined;
  }) => void;
  /** The server runs this tool only as a task (`execution.taskSupport: 'required'`). */
  readonly asTask?: boolean | undefined;
}
