import { ToolDefinition, ToolResult } from 'affordance';

// #region schema
/** The params of `get_forecast`, as plain JSON Schema (e.g. from an OpenAPI document). */
export const forecastSchema = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1, description: 'City name' },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    units: { enum: ['metric', 'imperial'] },
  },
  required: ['city'],
  additionalProperties: false,
} as const;
// #endregion schema

// #region tool
/** The type the handler's params are given (without one, they are `unknown`). */
export interface ForecastParams {
  city: string;
  days?: number;
  units?: 'metric' | 'imperial';
}

export const forecastTool = new ToolDefinition<ForecastParams>({
  name: 'get_forecast',
  description: 'Weather forecast for a city.',
  params: forecastSchema,
  handler: (params) => ToolResult.ok(null, `${params.city}: sunny for ${params.days ?? 1} day(s).`),
});
// #endregion tool
