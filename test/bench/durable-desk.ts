/**
 * The evaluation the durable benchmark runs (durable.bench.ts, and its worker
 * processes in durable-worker.ts): a model answering by turn after a fixed
 * latency — two tool calls (a read and a write) in turn 0, the answer in turn 1.
 */
import 'reflect-metadata';

import { IsString } from 'class-validator';

import { MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';
import {
  ProviderAdapter,
  providerCapabilities,
  type ProviderRequest,
  type ProviderTurn,
} from 'affordance/provider';

class OrderParams {
  @IsString() orderId!: string;
}

/** A note the write tool adds to the session. */
export class OrderNote {
  constructor(
    readonly orderId: string,
    readonly text: string,
  ) {}
}

/** Answers by turn after `latencyMs`, like a remote model of fixed latency. */
export class FixedLatencyModel extends ProviderAdapter {
  readonly name = 'fixed-latency';
  readonly capabilities = providerCapabilities({});

  constructor(private readonly latencyMs: number) {
    super();
  }

  async request(request: ProviderRequest): Promise<ProviderTurn> {
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    if (request.turn === 0) {
      return {
        toolCalls: [
          { callId: 'c1', name: 'lookup', arguments: { orderId: 'A-1' } },
          { callId: 'c2', name: 'add_note', arguments: { orderId: 'A-1' } },
        ],
      };
    }
    return { text: 'Noted.' };
  }
}

/** The prompt: a read-only lookup and a note that changes the session. */
export const deskPrompt = new Prompt({
  ns: 'bench',
  key: 'durable',
  sections: [
    new MarkdownSection({
      key: 'desk',
      title: 'Desk',
      template: 'Look orders up and note them.',
      tools: [
        new ToolDefinition({
          name: 'lookup',
          description: 'Look an order up.',
          params: OrderParams,
          readOnly: true,
          handler: (params) => ToolResult.ok(null, `Order ${params.orderId} is open.`),
        }),
        new ToolDefinition({
          name: 'add_note',
          description: 'Note an order.',
          params: OrderParams,
          handler: (params, context) => {
            context.session.dispatch(new OrderNote(params.orderId, 'checked'));
            return ToolResult.ok(null, `Noted ${params.orderId}.`);
          },
        }),
      ],
    }),
  ],
});
