import { type AdapterHarness, adapterConformanceChecks, type Cassette } from 'affordance/testing';

import { recordingHarness, replayHarness } from './cassette-harness.js';
import { openAIHarness } from './openai-harness.js';
import { scriptedHarness } from './scripted-harness.js';

/*
 * ReplayAdapter passes the conformance checks over cassettes recorded, check
 * by check, from a ScriptedAdapter and from the OpenAI test server (see
 * cassette-harness.ts for how).
 */
const sources: [string, () => AdapterHarness][] = [
  ['ScriptedAdapter', () => scriptedHarness()],
  ['OpenAIAdapter (responses)', () => openAIHarness('responses')],
];

describe.each(sources)('ReplayAdapter conformance (recorded from %s)', (name, inner) => {
  for (const check of adapterConformanceChecks) {
    it(check.name, async () => {
      const cassettes: Cassette[] = [];
      await check.run(recordingHarness(inner(), cassettes));
      await check.run(replayHarness(name, cassettes));
    });
  }
});
