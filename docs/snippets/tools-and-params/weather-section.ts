import 'reflect-metadata';

import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';

import { Describe, Prompt, Section, Tool, type ToolContext, ToolResult } from 'affordance';

// #region params
/** The arguments of `forecast`: each field validated by class-validator. */
export class ForecastParams {
  @Describe('City name, e.g. Oslo')
  @IsString()
  @MinLength(1)
  city!: string;

  @Describe('Days ahead, 1 to 7; 1 when left out')
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(7)
  days?: number;

  @IsIn(['c', 'f'])
  unit!: 'c' | 'f';
}
// #endregion params

// #region result
/** What `forecast` returns: the model reads it as JSON after the message. */
export class Forecast {
  @IsString() city!: string;
  @IsInt() highs!: number[];
}
// #endregion result

// #region section
/** A section whose method is a tool: the section's text tells the model when to use it. */
@Section({ key: 'weather', title: 'Weather', template: 'Answer weather questions with forecast.' })
export class WeatherSection {
  @Tool({ description: 'Forecast the daily highs of a city.', result: Forecast, readOnly: true })
  forecast(params: ForecastParams, _context: ToolContext): ToolResult<Forecast> {
    const days = params.days ?? 1;
    const highs = Array.from({ length: days }, (_, day) => (params.unit === 'c' ? 18 : 64) + day);
    const forecast = Object.assign(new Forecast(), { city: params.city, highs });
    return ToolResult.ok(forecast, `${days}-day forecast for ${params.city}.`);
  }
}

export const weatherPrompt = new Prompt({ ns: 'docs', key: 'weather', sections: [WeatherSection] });
// #endregion section
