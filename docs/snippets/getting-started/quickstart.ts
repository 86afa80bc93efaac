// npm install affordance reflect-metadata class-validator class-transformer inversify
import 'reflect-metadata';
import { IsString, Matches } from 'class-validator';
import { Container, inject, injectable } from 'inversify';
import {
  Describe,
  installAffordance,
  Prompt,
  ProviderAdapter,
  Section,
  Session,
  Tool,
  type ToolContext,
  ToolInvoked,
  ToolResult,
} from 'affordance';
import { ScriptedAdapter } from 'affordance/testing';

// The tool's arguments: a class-validator DTO, validated before your code runs.
class ForecastParams {
  @Describe('City name, capitalised, e.g. Paris')
  @IsString()
  @Matches(/^[A-Z][a-z]+$/)
  city!: string;
}

// An application service the section gets by dependency injection.
@injectable()
class WeatherService {
  forecast(city: string) {
    return { city, sky: 'sunny', highC: 21 };
  }
}

// A prompt section: the instructions and the tool they document, in one class.
@Section({
  key: 'weather',
  title: 'Weather',
  template: 'Answer questions about the weather. Use get_forecast; never guess.',
})
class WeatherSection {
  constructor(@inject(WeatherService) private readonly weather: WeatherService) {}

  @Tool({ name: 'get_forecast', description: "Tomorrow's forecast for a city.", readOnly: true })
  getForecast(params: ForecastParams, _context: ToolContext) {
    return ToolResult.ok(this.weather.forecast(params.city), `Forecast for ${params.city}.`);
  }
}

const prompt = new Prompt({ ns: 'quickstart', key: 'weather', sections: [WeatherSection] });

// The model's side, scripted so this runs offline: a bad call, the fix, the answer.
const model = new ScriptedAdapter([
  { toolCalls: [{ name: 'get_forecast', arguments: { city: 'paris' } }] },
  { toolCalls: [{ name: 'get_forecast', arguments: { city: 'Paris' } }] },
  { text: 'Tomorrow in Paris: sunny, up to 21 °C.' },
]);

const container = new Container();
const runtime = installAffordance(container);
container.bind(WeatherService).toSelf().inSingletonScope();
container.bind(ProviderAdapter).toConstantValue(model);

const session = new Session();
const response = await runtime.evaluate(prompt, { input: 'Weather in Paris tomorrow?', session });

for (const call of session.slice(ToolInvoked).all()) {
  console.log(`${call.name}(${String(call.rawArguments)}) → ${call.outcome}`);
  console.log(`  ${call.renderedMessage.replace(/\n+/g, ' ')}`);
}
console.log(`answer: ${response.text ?? ''}`);
