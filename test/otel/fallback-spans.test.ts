import 'reflect-metadata';

import { Container } from 'inversify';

import { installAffordance, MarkdownSection, Prompt } from 'affordance';
import { recordFallback } from 'affordance/otel';
import { FallbackAdapter } from 'affordance/provider';
import { TEST_STATE_SECRET } from 'affordance/testing';

import { answer, httpError, MemberStub } from '../provider/fallback/member-adapter.js';
import { InMemoryOtel, only } from './otel-harness.js';

describe('otel: a FallbackAdapter', () => {
  it('names the member that served on the chat span, with the fallback recorded as an event', async () => {
    const otel = new InMemoryOtel();
    const runtime = installAffordance(new Container(), {
      telemetry: otel.telemetry(),
      stateSecret: TEST_STATE_SECRET,
    });
    const adapter = new FallbackAdapter(
      [
        new MemberStub('openai', 'gpt-test', [{ throws: httpError(429) }]),
        new MemberStub('anthropic', 'claude-test', [
          answer('Fine.', { model: 'claude-test-20260101' }),
        ]),
      ],
      { circuitBreaker: { failureThreshold: 1 }, onEvent: recordFallback },
    );
    const prompt = new Prompt({
      ns: 'otel',
      key: 'fallback',
      sections: [new MarkdownSection({ key: 'ask', title: 'Ask', template: 'Answer.' })],
    });

    const response = await runtime.evaluate(prompt, { adapter });
    const chat = only(otel.spans(), 'chat');

    expect(response.text).toBe('Fine.');
    expect(chat.attributes['gen_ai.provider.name']).toBe('anthropic');
    expect(chat.attributes['gen_ai.response.model']).toBe('claude-test-20260101');
    expect(chat.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'affordance.provider.circuit',
        {
          'affordance.fallback.member': 'openai/gpt-test',
          'affordance.fallback.circuit_state': 'open',
        },
      ],
      [
        'affordance.provider.fallback',
        {
          'affordance.fallback.member': 'openai/gpt-test',
          'affordance.fallback.kind': 'rate-limit',
        },
      ],
    ]);
    const agent = only(otel.spans(), 'invoke_agent otel/fallback');
    expect(agent.attributes['gen_ai.provider.name']).toBe('fallback');
  });
});
