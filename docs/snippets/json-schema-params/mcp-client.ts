import { type JsonSchemaProblem, jsonSchemaProblems, Prompt } from 'affordance';
import { McpToolsSection, type SkippedMcpTool } from 'affordance/mcp';

// #region connect
/** Connects to an MCP server over stdio; tools it cannot validate are skipped and logged. */
export async function connectServer(
  command: string,
  args: readonly string[],
  log: (line: string) => void,
): Promise<McpToolsSection> {
  return McpToolsSection.connect({
    key: 'remote',
    server: { command, args },
    onSkippedTools: (skipped: readonly SkippedMcpTool[]) => {
      for (const tool of skipped) log(`skipped ${tool.name}: ${tool.problems[0]?.message}`);
    },
    // unsupportedSchemas: 'error', // strict: fail connect instead of skipping
  });
}
// #endregion connect

/** A prompt offering the server's tools. */
export function remotePrompt(section: McpToolsSection): Prompt {
  return new Prompt({ ns: 'app', key: 'remote', sections: [section] });
}

// #region check
/** Why a schema cannot be a tool's params (empty when it can). */
export function whyNot(schema: Record<string, unknown>): readonly JsonSchemaProblem[] {
  return jsonSchemaProblems(schema);
}
// #endregion check
