import { MarkdownSection, Prompt, ToolDefinition, ToolResult } from 'affordance';

import { Forecast, ForecastParams } from './weather-section.js';

// #region definition
/** The same tool without a class around it: a name, a description, params and a handler. */
export const forecastTool = new ToolDefinition({
  name: 'forecast',
  description: 'Forecast the daily highs of a city.',
  params: ForecastParams,
  result: Forecast,
  readOnly: true,
  handler: (params) => {
    const days = params.days ?? 1;
    const highs = Array.from({ length: days }, (_, day) => (params.unit === 'c' ? 18 : 64) + day);
    return ToolResult.ok(
      Object.assign(new Forecast(), { city: params.city, highs }),
      `${days}-day forecast for ${params.city}.`,
    );
  },
});

export const weatherSection = new MarkdownSection({
  key: 'weather',
  title: 'Weather',
  template: 'Answer weather questions with forecast.',
  tools: [forecastTool],
});
// #endregion definition

export const definitionPrompt = new Prompt({
  ns: 'docs',
  key: 'weather-definition',
  sections: [weatherSection],
});
