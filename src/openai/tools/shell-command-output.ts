/** What one command of a {@link ShellTool} call produced; the adapter sends it back as a `shell_call_output` entry. */
export class ShellCommandOutput {
  /** Standard output. */
  stdout = '';
  /** Standard error. */
  stderr = '';
  /** The exit code, or `null` when the command was stopped by its time limit. */
  exitCode: number | null = 0;

  /** A command output; `exitCode: null` means it timed out. */
  static of(stdout: string, stderr = '', exitCode: number | null = 0): ShellCommandOutput {
    return Object.assign(new ShellCommandOutput(), { stdout, stderr, exitCode });
  }
}
