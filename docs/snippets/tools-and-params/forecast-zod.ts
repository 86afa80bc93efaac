import { z } from 'zod';

import { ToolDefinition, ToolResult } from 'affordance';

// #region zod
/** The params as a zod 4 schema: the handler's params are typed from it. */
export const ForecastSchema = z.object({
  city: z.string().min(1).describe('City name, e.g. Oslo'),
  days: z.number().int().min(1).max(7).optional().describe('Days ahead, 1 to 7; 1 when left out'),
  unit: z.enum(['c', 'f']),
});

export const zodForecast = new ToolDefinition({
  name: 'forecast',
  description: 'Forecast the daily highs of a city.',
  params: ForecastSchema,
  handler: (params) => ToolResult.ok(null, `${params.days ?? 1}-day forecast for ${params.city}.`),
});
// #endregion zod
