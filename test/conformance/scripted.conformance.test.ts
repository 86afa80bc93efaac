import { adapterConformanceChecks } from 'affordance/testing';

import { scriptedHarness } from './scripted-harness.js';

const harness = scriptedHarness();

describe('ScriptedAdapter conformance', () => {
  for (const check of adapterConformanceChecks) it(check.name, () => check.run(harness));
});
