import { adapterConformanceChecks } from 'affordance/testing';

import { wires } from '../support/ai-sdk-wires.js';
import { aiSdkHarness } from './ai-sdk-harness.js';

describe.each(wires.map((wire) => [wire.packageName, wire] as const))(
  'AiSdkAdapter conformance over %s',
  (_name, wire) => {
    const harness = aiSdkHarness(wire);
    for (const check of adapterConformanceChecks) it(check.name, () => check.run(harness));
  },
);
