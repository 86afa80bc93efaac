// src/desk.ts
import 'reflect-metadata';
import { IsInt, IsString, Min } from 'class-validator';
import { Container } from 'inversify';
import { Redis } from 'ioredis';
import {
  installAffordance,
  Prompt,
  ProviderAdapter,
  Section,
  Tool,
  type ToolContext,
  ToolResult,
} from 'affordance';
import { RedisSessionStore, SessionCodec, SessionPersistence } from 'affordance/durable';
import { ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

class RefundParams {
  @IsString() orderId!: string;
  @IsInt() @Min(1) amountUsd!: number;
}

@Section({ key: 'refunds', title: 'Refunds', template: 'Refund orders the customer names.' })
class RefundSection {
  @Tool({
    name: 'refund_order',
    description: 'Refund an order.',
    approval: (params: RefundParams) => params.amountUsd > 50, // a person approves above $50
  })
  refund(params: RefundParams, _context: ToolContext) {
    return ToolResult.ok(null, `Refunded $${params.amountUsd} on ${params.orderId}.`);
  }
}

export const refundPrompt = new Prompt({ ns: 'desk', key: 'refunds', sections: [RefundSection] });

/** What each process builds at start-up: the same state secret, the same session store. */
export function openDesk(script: ScriptedTurn[]) {
  const container = new Container();
  const stateSecret = process.env['AFFORDANCE_STATE_SECRET'];
  if (stateSecret === undefined)
    throw new Error(
      'Set AFFORDANCE_STATE_SECRET: one secret of 32+ characters, the same in every process.',
    );
  const runtime = installAffordance(container, { stateSecret });
  container.bind(ProviderAdapter).toConstantValue(new ScriptedAdapter(script));
  const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
  const persistence = new SessionPersistence({
    store: new RedisSessionStore({ client: redis }),
    codec: new SessionCodec().registerPrompt(refundPrompt),
  });
  return { runtime, persistence, close: () => redis.quit() };
}
