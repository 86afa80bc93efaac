import { IsString, Matches } from 'class-validator';
import { inject, injectable } from 'inversify';
import { Describe, Prompt, Section, Tool, type ToolContext, ToolResult } from 'affordance';

/** Arguments of `get_forecast`. */
export class ForecastParams {
  @Describe('City name, capitalised, e.g. Paris')
  @IsString()
  @Matches(/^[A-Z][a-z]+$/)
  city!: string;
}

/** The application service the section injects. */
@injectable()
export class WeatherService {
  forecast(city: string) {
    return { city, sky: 'sunny', highC: 21 };
  }
}

/** The instructions and the tool they document. */
@Section({
  key: 'weather',
  title: 'Weather',
  template: 'Answer questions about the weather. Use get_forecast; never guess.',
})
export class WeatherSection {
  constructor(@inject(WeatherService) private readonly weather: WeatherService) {}

  @Tool({ name: 'get_forecast', description: "Tomorrow's forecast for a city.", readOnly: true })
  getForecast(params: ForecastParams, _context: ToolContext) {
    return ToolResult.ok(this.weather.forecast(params.city), `Forecast for ${params.city}.`);
  }
}

export const weatherPrompt = new Prompt({
  ns: 'quickstart',
  key: 'weather',
  sections: [WeatherSection],
});
