import { type } from 'arktype';

import { ToolDefinition, ToolResult } from 'affordance';

// #region arktype
/** The params as an arktype type: it implements Standard JSON Schema itself. */
export const ForecastSchema = type({
  city: 'string>0',
  'days?': '1<=number.integer<=7',
  unit: "'c'|'f'",
});

export const arktypeForecast = new ToolDefinition({
  name: 'forecast',
  description: 'Forecast the daily highs of a city.',
  params: ForecastSchema,
  handler: (params) => ToolResult.ok(null, `${params.days ?? 1}-day forecast for ${params.city}.`),
});
// #endregion arktype
