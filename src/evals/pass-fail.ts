import type { EvalScore } from './eval-report.js';

/** A pass/fail score: 1 and passed, or 0 and failed, with its reason. */
export function passFail(scorer: string, passed: boolean, reason: string): EvalScore {
  return { scorer, score: passed ? 1 : 0, passed, reason };
}

/** A value as short readable text for a reason (JSON, cut to 120 characters). */
export function shown(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else {
    try {
      text = value === undefined ? 'undefined' : JSON.stringify(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
