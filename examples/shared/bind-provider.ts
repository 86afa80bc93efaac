import Anthropic from '@anthropic-ai/sdk';
import type { Container } from 'inversify';
import OpenAI from 'openai';

import { type AffordanceRuntime, installAffordance, ProviderAdapter } from 'affordance';
import { AnthropicAdapter, AnthropicAdapterOptions } from 'affordance/anthropic';
import { OpenAIAdapter, OpenAIAdapterOptions } from 'affordance/openai';
import { createTestRuntime, type ScriptedAdapter, type ScriptedTurn } from 'affordance/testing';

/** What {@link bindProvider} installed and bound. */
export interface BoundProvider {
  /** The installed runtime: run prompts with `runtime.evaluate(prompt, options)`. */
  readonly runtime: AffordanceRuntime;
  /** The adapter bound to `ProviderAdapter`, which `runtime.evaluate` uses unless told otherwise. */
  readonly adapter: ProviderAdapter;
  /** The scripted model when running offline (check `assertDone()` on it), otherwise `undefined`. */
  readonly script: ScriptedAdapter | undefined;
  /** What the run talks to, for the first line of output. */
  readonly mode: string;
}

/**
 * Installs affordance in `container` and binds the provider the examples use
 * to `ProviderAdapter`: OpenAI when `OPENAI_API_KEY` is set (any compatible
 * server via `OPENAI_BASE_URL`; `OPENAI_MODEL`, and `OPENAI_API=chat` for Chat
 * Completions), else Anthropic when `ANTHROPIC_API_KEY` is set
 * (`ANTHROPIC_MODEL`; `ANTHROPIC_BASE_URL` is read by the SDK), otherwise the
 * scripted model `script`.
 */
export function bindProvider(
  container: Container,
  env: NodeJS.ProcessEnv,
  script: readonly ScriptedTurn[],
  print: (line: string) => void,
): BoundProvider {
  const apiKey = env['OPENAI_API_KEY'];
  if (apiKey === undefined || apiKey === '') {
    const anthropicKey = env['ANTHROPIC_API_KEY'];
    if (anthropicKey !== undefined && anthropicKey !== '') {
      return bindAnthropic(container, env, anthropicKey, print);
    }
    const { runtime, adapter } = createTestRuntime({ container, script });
    return {
      runtime,
      adapter,
      script: adapter,
      mode: 'scripted model (set OPENAI_API_KEY or ANTHROPIC_API_KEY for a real API)',
    };
  }
  const runtime = installAffordance(container);
  const baseURL = env['OPENAI_BASE_URL'];
  container
    .bind(OpenAI)
    .toConstantValue(new OpenAI({ apiKey, ...(baseURL === undefined ? {} : { baseURL }) }));
  const model = env['OPENAI_MODEL'] ?? 'gpt-5-mini';
  container.bind(OpenAIAdapterOptions).toConstantValue({
    model,
    api: env['OPENAI_API'] === 'chat' ? 'chat' : 'responses',
    modelSettings: { maxOutputTokens: 4_000 },
    retry: {
      onRetry: (event) => {
        print(`  retrying in ${Math.round(event.delayMs)} ms after ${event.reason}`);
      },
    },
  });
  container.bind(ProviderAdapter).to(OpenAIAdapter).inSingletonScope();
  return {
    runtime,
    adapter: container.get(ProviderAdapter),
    script: undefined,
    mode: `OpenAI ${model} at ${baseURL ?? 'api.openai.com'}`,
  };
}

/** Binds `AnthropicAdapter` on the official SDK, as {@link bindProvider} does for OpenAI. */
function bindAnthropic(
  container: Container,
  env: NodeJS.ProcessEnv,
  apiKey: string,
  print: (line: string) => void,
): BoundProvider {
  const runtime = installAffordance(container);
  const baseURL = env['ANTHROPIC_BASE_URL'];
  container
    .bind(Anthropic)
    .toConstantValue(new Anthropic({ apiKey, ...(baseURL === undefined ? {} : { baseURL }) }));
  const model = env['ANTHROPIC_MODEL'] ?? 'claude-sonnet-4-6';
  container.bind(AnthropicAdapterOptions).toConstantValue({
    model,
    maxTokens: 4_000,
    retry: {
      onRetry: (event) => {
        print(`  retrying in ${Math.round(event.delayMs)} ms after ${event.reason}`);
      },
    },
  });
  container.bind(ProviderAdapter).to(AnthropicAdapter).inSingletonScope();
  return {
    runtime,
    adapter: container.get(ProviderAdapter),
    script: undefined,
    mode: `Anthropic ${model} at ${baseURL ?? 'api.anthropic.com'}`,
  };
}
