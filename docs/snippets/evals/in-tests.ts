// #region in-tests
import { evalSuiteTest, expectEvalSuite } from 'affordance/evals';

import { refundSuite } from './suite.js';

// In a jest (or vitest, node:test) file: one test that fails with the table of failed cases.
export function registerRefundEvals(test: (name: string, run: () => Promise<void>) => unknown) {
  evalSuiteTest(test, refundSuite, { minPassRate: 0.5 });
}

// Or inside a test of your own, with the report to look at:
export async function refundsKeepUp() {
  const report = await expectEvalSuite(refundSuite, { minPassRate: 0.5, trials: 2 });
  return report.summary.passRate;
}
// #endregion in-tests
