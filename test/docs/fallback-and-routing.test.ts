import 'reflect-metadata';

import { readFile } from 'node:fs/promises';

import { Module } from '@nestjs/common';
import { IsString } from 'class-validator';
import { Container } from 'inversify';

import {
  installAffordance,
  MarkdownSection,
  Prompt,
  PromptExecuted,
  ProviderAdapter,
  Session,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import { AffordanceService } from 'affordance/nest';
import { providerCapabilities, type ProviderTurn } from 'affordance/provider';
import { ScriptedAdapter, TEST_STATE_SECRET } from 'affordance/testing';

import { providerWithFallback } from '../../docs/snippets/fallback-and-routing/fallback.js';
import { affordanceWithFallback } from '../../docs/snippets/fallback-and-routing/nest-module.js';
import { routedProvider } from '../../docs/snippets/fallback-and-routing/routing.js';
import * as claude from '../support/anthropic-payloads.js';
import { AnthropicTestServer } from '../support/anthropic-test-server.js';
import { createContext } from '../support/nest-http.js';
import * as gpt from '../support/openai-payloads.js';
import { OpenAITestServer } from '../support/openai-test-server.js';

class OrderParams {
  @IsString() orderId!: string;
}

function refundPrompt(ns = 'support'): Prompt {
  return new Prompt({
    ns,
    key: 'refunds',
    sections: [
      new MarkdownSection({
        key: 'desk',
        title: 'Desk',
        template: 'Refund orders when asked.',
        tools: [
          new ToolDefinition({
            name: 'refund_order',
            description: 'Refund an order.',
            params: OrderParams,
            handler: (params) => ToolResult.ok(null, `Refunded ${params.orderId}.`),
          }),
        ],
      }),
    ],
  });
}

function runtime() {
  return installAffordance(new Container(), { stateSecret: TEST_STATE_SECRET });
}

const page = readFile(new URL('../../docs/guide/fallback-and-routing.md', import.meta.url), 'utf8');

class NamedScript extends ScriptedAdapter {
  constructor(
    override readonly name: string,
    turns: ConstructorParameters<typeof ScriptedAdapter>[0],
  ) {
    super(turns);
  }
}

describe('docs: fallback and routing', () => {
  it('the fallback snippet moves from a rate-limited OpenAI to Claude, logging what the page shows', async () => {
    const openai = await OpenAITestServer.start();
    const anthropic = await AnthropicTestServer.start();
    try {
      openai.reply(
        {
          json: gpt.responseBody([
            gpt.reasoning(),
            gpt.functionCall('refund_order', { orderId: 'A-1' }, 'call_1'),
          ]),
        },
        {
          status: 429,
          json: { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } },
        },
      );
      anthropic.reply({ json: claude.messageBody({ text: 'Refunded A-1.' }) });
      const log: string[] = [];
      const adapter = providerWithFallback(openai.client(), anthropic.client(), (line) =>
        log.push(line),
      );
      const session = new Session();
      const response = await runtime().evaluate(refundPrompt(), {
        adapter,
        session,
        input: 'Refund A-1.',
      });
      expect(response.text).toBe('Refunded A-1.');
      expect(session.view.slice(PromptExecuted).latest()?.provider).toBe('anthropic');
      expect(await page).toContain('```text\n' + log.join('\n') + '\n```');
      expect(log).toHaveLength(2);
      expect([...openai.problems(), ...anthropic.problems()]).toEqual([]);
    } finally {
      await openai.close();
      await anthropic.close();
    }
  });

  it('the routing snippet sends triage and later turns to the small model, first turns to the large one', async () => {
    const small = new NamedScript('small', [{ text: 'Triaged.' }, { text: 'Refunded A-1.' }]);
    const large = new NamedScript('large', [
      { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A-1' } }] },
    ]);
    const adapter = routedProvider(small, large);
    const session = new Session();
    await runtime().evaluate(refundPrompt('triage'), { adapter, session });
    await runtime().evaluate(refundPrompt('support'), { adapter, session });
    const served = session.view
      .slice(PromptExecuted)
      .all()
      .map((event) => event.provider);
    expect(served).toEqual(['small', 'small']);
    expect(large.requests.map((request) => request.turn)).toEqual([0]);
    expect(small.requests.map((request) => [request.prompt.ns, request.turn])).toEqual([
      ['triage', 0],
      ['support', 1],
    ]);
  });

  it('the Nest snippet serves through the backup while the primary is down', async () => {
    class Down extends ProviderAdapter {
      override readonly name = 'primary';
      override readonly capabilities = providerCapabilities();
      override request(): Promise<ProviderTurn> {
        return Promise.reject(Object.assign(new Error('Service Unavailable'), { status: 503 }));
      }
    }
    @Module({
      imports: [
        affordanceWithFallback(
          () => new Down(),
          () => new NamedScript('backup', [{ text: 'Served by the backup.' }]),
        ),
      ],
    })
    class AppModule {}
    const app = await createContext(AppModule);
    try {
      const response = await app.get(AffordanceService).evaluate(refundPrompt());
      expect(response.text).toBe('Served by the backup.');
    } finally {
      await app.close();
    }
  });
});
