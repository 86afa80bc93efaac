import { adapterConformanceChecks } from 'affordance/testing';

import { anthropicHarness } from './anthropic-harness.js';

describe('AnthropicAdapter conformance', () => {
  const harness = anthropicHarness();
  for (const check of adapterConformanceChecks) it(check.name, () => check.run(harness));
});
