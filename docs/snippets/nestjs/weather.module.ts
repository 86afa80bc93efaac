import 'reflect-metadata';
import type { IncomingMessage } from 'node:http';
import { Body, Controller, Injectable, Module, Post, Req, Scope, Inject } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { IsString, Matches } from 'class-validator';
import { Prompt, Section, Tool, type ToolContext, ToolResult } from 'affordance';
import { type AdapterOption, AffordanceModule, AffordanceService } from 'affordance/nest';

export class ForecastParams {
  @IsString() @Matches(/^[A-Z][a-z]+$/) city!: string;
}

// An ordinary Nest provider, singleton.
@Injectable()
export class WeatherService {
  forecast(city: string) {
    return { city, sky: 'sunny', highC: 21 };
  }
}

// Request-scoped: each HTTP request gets its own, and so do the tool calls its evaluation makes.
@Injectable({ scope: Scope.REQUEST })
export class Caller {
  constructor(@Inject(REQUEST) private readonly request: IncomingMessage) {}
  get name(): string {
    return String(this.request.headers['x-user'] ?? 'anonymous');
  }
}

// A section is a Nest provider too: it injects Nest services by type.
@Section({
  key: 'weather',
  title: 'Weather',
  template: 'Answer weather questions with get_forecast.',
})
export class WeatherSection {
  constructor(
    private readonly weather: WeatherService,
    private readonly caller: Caller,
  ) {}

  @Tool({ name: 'get_forecast', description: "Tomorrow's forecast for a city." })
  getForecast(params: ForecastParams, _context: ToolContext) {
    const forecast = this.weather.forecast(params.city);
    return ToolResult.ok(forecast, `Forecast for ${params.city}, asked by ${this.caller.name}.`);
  }
}

export const weatherPrompt = new Prompt({ ns: 'docs', key: 'weather', sections: [WeatherSection] });

class AskDto {
  @IsString() question!: string;
}

@Controller('weather')
export class WeatherController {
  constructor(private readonly affordance: AffordanceService) {}

  @Post()
  async ask(@Req() request: IncomingMessage, @Body() body: AskDto) {
    // `request` runs the evaluation in this request's context: its Caller is this caller.
    const response = await this.affordance.evaluate(weatherPrompt, {
      request,
      input: body.question,
    });
    return { answer: response.text, tools: response.toolCalls.map((call) => call.result.message) };
  }
}

/** The application module; `adapter` is e.g. `OpenAIAdapter` (with `configure`) or a factory. */
@Module({})
export class WeatherAppModule {
  static withModel(adapter: AdapterOption) {
    return {
      module: WeatherAppModule,
      imports: [
        AffordanceModule.forRoot({ adapter, adapterScope: 'evaluation', prompts: [weatherPrompt] }),
      ],
      controllers: [WeatherController],
      providers: [WeatherService, Caller, WeatherSection],
    };
  }
}
