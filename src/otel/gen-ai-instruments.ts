import type { Histogram, Meter } from '@opentelemetry/api';

import { Metrics } from './gen-ai-attributes.js';

/** The bucket boundaries the conventions advise for token counts. */
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];
/** The bucket boundaries the conventions advise for durations, in seconds. */
const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

/** The histograms affordance records, named and bucketed as the GenAI conventions say. @internal */
export class GenAiInstruments {
  /** `gen_ai.client.token.usage`: input and output tokens per provider request. */
  readonly tokenUsage: Histogram;
  /** `gen_ai.client.operation.duration`: seconds per provider request. */
  readonly operationDuration: Histogram;
  /** `gen_ai.execute_tool.duration`: seconds per tool call. */
  readonly toolDuration: Histogram;

  constructor(meter: Meter) {
    this.tokenUsage = meter.createHistogram(Metrics.tokenUsage, {
      description: 'Number of input and output tokens used.',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    });
    this.operationDuration = meter.createHistogram(Metrics.operationDuration, {
      description: 'GenAI operation duration.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.toolDuration = meter.createHistogram(Metrics.toolDuration, {
      description: 'Duration of a tool execution.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
  }
}
