// #region load
import { defineEvalSuite, loadEvalCases } from 'affordance/evals';

import { createRuntime, refundPrompt } from './refund-desk.js';

export async function refundSuiteFromFile(path: string) {
  const cases = await loadEvalCases(path); // every line checked: file:line and the field on error
  return defineEvalSuite({ name: 'refunds', prompt: refundPrompt, runtime: createRuntime, cases });
}
// #endregion load
