import 'reflect-metadata';
import { IsString } from 'class-validator';
import {
  MarkdownSection,
  Prompt,
  Session,
  type ToolContext,
  ToolDefinition,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { createTestRuntime, ManualClock } from 'affordance/testing';

class QuoteParams {
  @IsString() sku!: string;
}

/** The error your HTTP client throws for a 503 or a dropped connection. */
export class ServiceUnavailable extends Error {}

/** A supplier API that is down `failures` times, then answers; or never answers (`hang`). */
export interface Supplier {
  quote(sku: string, signal: AbortSignal): Promise<number>;
}

// #region tools
export function quotePrompt(supplier: Supplier): Prompt {
  const getQuote = new ToolDefinition({
    name: 'get_quote',
    description: "Get the supplier's price for a SKU.",
    params: QuoteParams,
    readOnly: true,
    timeoutMs: 10_000,
    retry: {
      attempts: 3,
      backoffMs: 200,
      transient: (error) => error instanceof ServiceUnavailable,
    },
    handler: async (params: QuoteParams, context: ToolContext) => {
      const price = await supplier.quote(params.sku, context.signal);
      return ToolResult.ok({ sku: params.sku, price }, `Price of ${params.sku}.`);
    },
  });
  return new Prompt({
    ns: 'docs',
    key: 'quotes',
    toolTimeoutMs: 30_000, // for tools that declare no timeoutMs of their own
    sections: [
      new MarkdownSection({
        key: 'quotes',
        title: 'Quotes',
        template: 'Quote prices with get_quote.',
        tools: [getQuote],
      }),
    ],
  });
}
// #endregion tools

/** How one call of `get_quote` went: its outcome and its attempts. */
export interface QuoteCall {
  readonly outcome: string;
  readonly attempts: readonly string[];
  readonly modelRead: string;
}

const script = [
  { toolCalls: [{ name: 'get_quote', arguments: { sku: 'BOLT-7' } }] },
  { text: 'Quoted.' },
];

async function quoteOnce(
  supplier: Supplier,
  clock?: ManualClock,
  whenCalled?: Promise<void>,
): Promise<QuoteCall> {
  const agent = createTestRuntime({ script, runtime: clock === undefined ? {} : { clock } });
  const session = new Session();
  const running = agent.evaluate(quotePrompt(supplier), { session });
  if (clock !== undefined && whenCalled !== undefined) {
    await whenCalled;
    clock.advance(10_000); // the tool's timeoutMs passes
  }
  await running;
  const [call] = session.slice(ToolInvoked).all();
  if (call === undefined) throw new Error('get_quote was not called');
  return {
    outcome: call.outcome,
    attempts: call.attempts.map((a) => `${a.attempt}: ${a.ended}`),
    modelRead: call.renderedMessage,
  };
}

/** A supplier that is unavailable twice, then answers 12.5. */
export function flakySupplier(): Supplier {
  let failures = 2;
  return {
    quote: () => {
      if (failures-- > 0) return Promise.reject(new ServiceUnavailable('503 from supplier'));
      return Promise.resolve(12.5);
    },
  };
}

export const quoteFromFlakySupplier = (): Promise<QuoteCall> => quoteOnce(flakySupplier());

/** A supplier that never answers, on a clock the example moves by hand. */
export function quoteFromHangingSupplier(): Promise<QuoteCall> {
  let called!: () => void;
  const whenCalled = new Promise<void>((resolve) => (called = resolve));
  const hanging: Supplier = {
    quote: () => {
      called();
      return new Promise<number>(() => undefined);
    },
  };
  return quoteOnce(hanging, new ManualClock(), whenCalled);
}
