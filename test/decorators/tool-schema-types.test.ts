/**
 * `@Tool({ params: schema })` checks the method's first parameter against the
 * schema's output type at compile time (`npm run typecheck` type-checks this
 * file: each `@ts-expect-error` must meet an error), and runs as usual.
 */
import { z } from 'zod';

import { Prompt, Section, Tool, type ToolContext, ToolResult } from 'affordance';
import { createTestRuntime } from 'affordance/testing';

const Lookup = z.object({ orderId: z.string() });

@Section({ key: 'orders', title: 'Orders' })
class Orders {
  @Tool({ description: 'Look an order up.', params: Lookup })
  lookup(params: z.infer<typeof Lookup>, _context: ToolContext): ToolResult<null> {
    return ToolResult.ok(null, `Order ${params.orderId}.`);
  }

  // A supertype of the output is fine (bivariant, as method parameters are).
  @Tool({ description: 'Log an order.', params: Lookup })
  log(params: object, _context: ToolContext): ToolResult<null> {
    return ToolResult.ok(null, `Logged ${Object.keys(params).join(',')}.`);
  }
}

@Section({ key: 'wrong', title: 'Wrong' })
class Wrong {
  // @ts-expect-error -- the method takes `{ count: number }`, the schema gives `{ orderId: string }`.
  @Tool({ description: 'Count orders.', params: Lookup })
  count(params: { count: number }, _context: ToolContext): ToolResult<null> {
    return ToolResult.ok(null, String(params.count));
  }
}

it('runs the methods of schema tools with the validated value', async () => {
  const prompt = new Prompt({ ns: 'test', key: 'orders', sections: [Orders, Wrong] });
  const { runtime } = createTestRuntime({ configure: (c) => c.bind(Orders).toSelf() });

  const outcome = await runtime.callTool(prompt, { name: 'lookup', arguments: { orderId: 'A-1' } });

  expect(outcome.message).toBe('Order A-1.');
});
