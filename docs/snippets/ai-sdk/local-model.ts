import { createOpenAICompatible } from '@ai-sdk/openai-compatible';

import { type Prompt, type PromptResponse, Session } from 'affordance';
import { AiSdkAdapter } from 'affordance/ai-sdk';
import type { AffordanceRuntime } from 'affordance';

// #region local
/** A model served by Ollama (or vLLM, LM Studio, llama.cpp) on its Chat Completions endpoint. */
export function localAdapter(baseURL = 'http://127.0.0.1:11434/v1'): AiSdkAdapter {
  const ollama = createOpenAICompatible({
    name: 'ollama',
    baseURL,
    // Usage of streamed answers, and JSON-schema output, where the server supports them.
    includeUsage: true,
    supportsStructuredOutputs: true,
  });
  return new AiSdkAdapter({ model: ollama.chatModel('llama3.2') });
}
// #endregion local

// #region per-evaluation
/** Runs one prompt on the local model, whatever adapter the container binds. */
export function askLocally<O>(
  runtime: AffordanceRuntime,
  prompt: Prompt<O>,
  input: string,
  baseURL?: string,
): Promise<PromptResponse<O>> {
  return runtime.evaluate(prompt, {
    adapter: localAdapter(baseURL),
    input,
    session: new Session(),
  });
}
// #endregion per-evaluation
