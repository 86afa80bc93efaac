// #region judge
import { IsIn, IsString } from 'class-validator';

import type { ProviderAdapter } from 'affordance';
import { llmJudge } from 'affordance/evals';

/** A verdict class of your own; the judge's answer is validated against it like any output. */
export class ToneVerdict {
  @IsIn(['warm', 'neutral', 'cold']) tone!: string;
  @IsString() why!: string;
}

export function toneJudge(judgeModel: ProviderAdapter) {
  return llmJudge({
    name: 'tone',
    rubric: 'Grade the tone of the reply to an upset customer: warm, neutral or cold.',
    adapter: judgeModel, // any adapter: another provider, a cheaper model
    verdict: ToneVerdict,
    toScore: (verdict) => ({
      score: { warm: 1, neutral: 0.5, cold: 0 }[verdict.tone] ?? 0,
      reason: `${verdict.tone}: ${verdict.why}`,
    }),
    threshold: 0.5,
  });
}
// #endregion judge
