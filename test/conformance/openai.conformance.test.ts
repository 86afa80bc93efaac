import { adapterConformanceChecks } from 'affordance/testing';

import { openAIHarness } from './openai-harness.js';

describe.each(['responses', 'chat'] as const)('OpenAIAdapter conformance (api: %s)', (api) => {
  const harness = openAIHarness(api);
  for (const check of adapterConformanceChecks) it(check.name, () => check.run(harness));
});
