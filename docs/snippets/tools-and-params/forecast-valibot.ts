import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';

import { ToolDefinition, ToolResult } from 'affordance';

// #region valibot
/**
 * The params as a valibot schema. valibot's own `~standard` validates but
 * writes no JSON Schema: `toStandardJsonSchema` adds that (the same object
 * also works as a prompt's output or a section's params).
 */
export const ForecastSchema = toStandardJsonSchema(
  v.object({
    city: v.pipe(v.string(), v.minLength(1), v.description('City name, e.g. Oslo')),
    days: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(7),
        v.description('Days ahead, 1 to 7; 1 when left out'),
      ),
    ),
    unit: v.picklist(['c', 'f']),
  }),
);

export const valibotForecast = new ToolDefinition({
  name: 'forecast',
  description: 'Forecast the daily highs of a city.',
  params: ForecastSchema,
  handler: (params) => ToolResult.ok(null, `${params.days ?? 1}-day forecast for ${params.city}.`),
});
// #endregion valibot
