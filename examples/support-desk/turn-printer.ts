import type { ToolDefinition } from 'affordance';
import {
  ProviderAdapter,
  type ProviderCapabilities,
  type ProviderRequest,
  type ProviderTurn,
  type ToolSpec,
} from 'affordance/provider';

/** What {@link TurnPrinter} reports after each model turn. */
export interface TurnReport {
  readonly request: ProviderRequest;
  readonly turn: ProviderTurn;
  /** Tokens of this turn (the runtime adds them up over the evaluation). */
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * Wraps the real adapter to report every model turn as it arrives, before
 * the runtime runs its tool calls: the runtime has no per-turn event, and
 * the provider seam is where a turn is visible whatever the provider.
 * Everything else — capabilities, tool schemas, validation — is the inner
 * adapter's.
 */
export class TurnPrinter extends ProviderAdapter {
  override readonly name: string;
  override readonly capabilities: ProviderCapabilities;

  constructor(
    private readonly inner: ProviderAdapter,
    private readonly onTurn: (report: TurnReport) => void,
  ) {
    super();
    this.name = inner.name;
    this.capabilities = inner.capabilities;
  }

  override validate(tools: readonly ToolDefinition[]): void {
    this.inner.validate(tools);
  }

  override toolSpec(tool: ToolDefinition, descriptions?: ReadonlyMap<string, string>): ToolSpec {
    return this.inner.toolSpec(tool, descriptions);
  }

  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    const turn = await this.inner.request(request);
    this.onTurn({
      request,
      turn,
      inputTokens: turn.usage?.inputTokens ?? 0,
      outputTokens: turn.usage?.outputTokens ?? 0,
    });
    return turn;
  }
}
