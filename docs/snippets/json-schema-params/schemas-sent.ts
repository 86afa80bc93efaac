import { toJsonSchema } from 'affordance/provider';

import { forecastSchema } from './forecast-tool.js';

// #region sent
/** What a provider adapter sends for the tool: the schema per profile, and what strict mode drops. */
export function schemasSent() {
  const strict = toJsonSchema(forecastSchema, 'openai-strict');
  return {
    standard: toJsonSchema(forecastSchema, 'standard').schema,
    strict: strict.schema,
    unexpressed: strict.unexpressed,
  };
}
// #endregion sent
