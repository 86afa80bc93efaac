import 'reflect-metadata';
import { IsInt, IsString, Min } from 'class-validator';
import { Container } from 'inversify';
import {
  type AffordanceRuntime,
  installAffordance,
  Prompt,
  ProviderAdapter,
  Section,
  Tool,
  type ToolContext,
  ToolResult,
} from 'affordance';
import { SessionCodec, SessionPersistence, type SessionStore } from 'affordance/durable';

export class RefundParams {
  @IsString() orderId!: string;
  @IsInt() @Min(1) amountUsd!: number;
}

/** Every refund the handler actually made, for the demo. */
export const refundsMade: string[] = [];

// #region tool
@Section({ key: 'refunds', title: 'Refunds', template: 'Refund orders the customer names.' })
export class RefundSection {
  @Tool({
    name: 'refund_order',
    description: 'Refund an order.',
    // A person approves refunds above $50; smaller ones run at once.
    approval: (params: RefundParams) => params.amountUsd > 50,
  })
  refund(params: RefundParams, _context: ToolContext) {
    refundsMade.push(`${params.orderId}: $${params.amountUsd}`);
    return ToolResult.ok(null, `Refunded $${params.amountUsd} on ${params.orderId}.`);
  }
}
// #endregion tool

export const refundPrompt = new Prompt({ ns: 'docs', key: 'refunds', sections: [RefundSection] });

// #region wiring
/** What each process builds at start-up: a runtime that signs states, and the session store. */
export function createRefundDesk(options: {
  adapter: ProviderAdapter;
  store: SessionStore; // PostgresSessionStore or RedisSessionStore in production
  stateSecret: string; // the same in every process, e.g. process.env.AFFORDANCE_STATE_SECRET
}): { runtime: AffordanceRuntime; persistence: SessionPersistence } {
  const container = new Container();
  const runtime = installAffordance(container, { stateSecret: options.stateSecret });
  container.bind(ProviderAdapter).toConstantValue(options.adapter);
  const codec = new SessionCodec().registerPrompt(refundPrompt);
  const persistence = new SessionPersistence({ store: options.store, codec });
  return { runtime, persistence };
}
// #endregion wiring
