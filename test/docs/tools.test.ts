import { MarkdownSection, Prompt, Session, ToolInvoked } from 'affordance';
import { toJsonSchema } from 'affordance/provider';
import { createTestRuntime } from 'affordance/testing';

import {
  LookupParams,
  lookupParams,
  lookupWithClass,
  lookupWithZod,
} from '../../docs/snippets/tools/standard-schema.js';

/** The Tools page's claims about the same tool declared with a class and with zod. */
describe('docs: tools with class-validator and Standard Schema params', () => {
  it('should send the same required field and constraint in the standard profile', () => {
    for (const params of [LookupParams, lookupParams]) {
      const schema = toJsonSchema(params, 'standard').schema as Record<string, unknown>;
      expect(schema['required']).toEqual(['orderId']);
      expect((schema['properties'] as Record<string, unknown>)['orderId']).toMatchObject({
        type: 'string',
        minLength: 3,
        description: 'Order id, e.g. A-1',
      });
    }
  });

  it('should list minLength as unexpressed in the openai-strict profile, both ways', () => {
    for (const params of [LookupParams, lookupParams]) {
      const strict = toJsonSchema(params, 'openai-strict');
      expect(strict.unexpressed.map((entry) => [entry.path, entry.constraint])).toContainEqual([
        'orderId',
        'minLength',
      ]);
    }
  });

  it('should validate a call the same way with either tool', async () => {
    for (const tool of [lookupWithClass, lookupWithZod]) {
      const prompt = new Prompt({
        ns: 'docs',
        key: 'orders',
        sections: [
          new MarkdownSection({ key: 'orders', title: 'Orders', template: 'x', tools: [tool] }),
        ],
      });
      const { evaluate } = createTestRuntime({
        script: [
          { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A' } }] },
          { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-1' } }] },
          { text: 'done' },
        ],
      });
      const session = new Session();
      await evaluate(prompt, { session });
      const [bad, good] = session.slice(ToolInvoked).all();
      expect(bad?.outcome).toBe('failure');
      expect(bad?.renderedMessage).toContain('orderId');
      expect(good?.outcome).toBe('success');
    }
  });
});
