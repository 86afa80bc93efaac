import type { Context, Tracer } from '@opentelemetry/api';

import type { GenAiInstruments } from './gen-ai-instruments.js';

/** What the spans of one evaluation share: where they hang, what they are tagged with, what they may record. @internal */
export interface EvaluationTrace {
  readonly tracer: Tracer;
  readonly instruments: GenAiInstruments;
  /** The context holding the evaluation's `invoke_agent` span: the parent of its requests and calls. */
  readonly context: Context;
  /** Whether prompt text, messages, arguments and results may be recorded. */
  readonly captureContent: boolean;
  /** `gen_ai.provider.name`: the adapter's name. */
  readonly provider: string;
  /** `gen_ai.request.model`, when the adapter says. */
  readonly model: string | undefined;
  readonly evaluationId: string;
  readonly sessionId: string;
}
