import {
  ProviderAdapter,
  type AffordanceRuntime,
  type ProviderRequest,
  type ProviderTurn,
  type RenderedPrompt,
  type ToolDefinition,
} from 'affordance';

/** What {@link TurnPrinter} reports after each model turn. */
export interface TurnReport {
  readonly request: ProviderRequest;
  readonly turn: ProviderTurn;
  /** Tokens of this turn alone (the provider reports running totals). */
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * Wraps the real adapter to report every model turn as it arrives, before
 * the runtime runs its tool calls: the runtime has no per-turn event, and
 * the provider seam is where a turn is visible whatever the provider.
 */
export class TurnPrinter extends ProviderAdapter {
  override readonly name: string;
  readonly #seen = new Map<string, { input: number; output: number }>();

  constructor(
    runtime: AffordanceRuntime,
    private readonly inner: ProviderAdapter,
    private readonly onTurn: (report: TurnReport) => void,
  ) {
    super(runtime);
    this.name = inner.name;
  }

  override validate(rendered: RenderedPrompt): void {
    this.inner.validate(rendered);
  }

  override argumentsProfile(tool: ToolDefinition) {
    return this.inner.argumentsProfile(tool);
  }

  override async request(request: ProviderRequest): Promise<ProviderTurn> {
    const turn = await this.inner.request(request);
    const before = this.#seen.get(request.evaluationId) ?? { input: 0, output: 0 };
    const now = {
      input: turn.usage?.inputTokens ?? before.input,
      output: turn.usage?.outputTokens ?? before.output,
    };
    this.#seen.set(request.evaluationId, now);
    this.onTurn({
      request,
      turn,
      inputTokens: now.input - before.input,
      outputTokens: now.output - before.output,
    });
    return turn;
  }
}
