// src/server.ts
import 'reflect-metadata';
import type { IncomingMessage } from 'node:http';
import { Controller, Injectable, Module, Query, Req, Sse, type MessageEvent } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsString, Matches } from 'class-validator';
import { filter, map, type Observable } from 'rxjs';
import { Prompt, Section, Tool, type ToolContext, ToolResult } from 'affordance';
import { AffordanceModule, AffordanceService } from 'affordance/nest';
import { ScriptedAdapter } from 'affordance/testing';

class ForecastParams {
  @IsString() @Matches(/^[A-Z][a-z]+$/) city!: string;
}

// The service and the section are Nest providers now: the section injects the service by type.
@Injectable()
class WeatherService {
  forecast(city: string) {
    return { city, sky: 'sunny', highC: 21 };
  }
}

@Section({ key: 'weather', title: 'Weather', template: 'Answer with get_forecast; never guess.' })
class WeatherSection {
  constructor(private readonly weather: WeatherService) {}

  @Tool({ name: 'get_forecast', description: "Tomorrow's forecast for a city.", readOnly: true })
  getForecast(params: ForecastParams, _context: ToolContext) {
    return ToolResult.ok(this.weather.forecast(params.city), `Forecast for ${params.city}.`);
  }
}

const prompt = new Prompt({ ns: 'quickstart', key: 'weather', sections: [WeatherSection] });

@Controller('weather')
class WeatherController {
  constructor(private readonly affordance: AffordanceService) {}

  // GET /weather/stream?q=...: the evaluation's parts as server-sent events, mapped to plain JSON.
  @Sse('stream')
  stream(@Req() request: IncomingMessage, @Query('q') question: string): Observable<MessageEvent> {
    return this.affordance.observe(prompt, { request, input: question }).pipe(
      map((part): MessageEvent | undefined => {
        if (part.type === 'tool-call-end') {
          return { data: { tool: part.event.name, outcome: part.event.outcome } };
        }
        if (part.type === 'text-delta') return { data: { text: part.delta } };
        if (part.type === 'answer') return { data: { done: true, turns: part.response.turns } };
        return undefined; // the other parts (turn starts, argument deltas, ...) stay on the server
      }),
      filter((event) => event !== undefined),
    );
  }
}

@Module({
  imports: [
    AffordanceModule.forRoot({
      // Offline again: a fresh scripted model for each request (swap in OpenAIAdapter for a real one).
      adapter: () =>
        new ScriptedAdapter([
          { toolCalls: [{ name: 'get_forecast', arguments: { city: 'Paris' } }] },
          { text: 'Tomorrow in Paris: sunny, up to 21 °C.' },
        ]),
      adapterScope: 'evaluation',
      prompts: [prompt],
    }),
  ],
  controllers: [WeatherController],
  providers: [WeatherService, WeatherSection],
})
class AppModule {}

const app = await NestFactory.create(AppModule);
await app.listen(Number(process.env['PORT'] ?? 3000), '127.0.0.1');
console.log(`Listening on ${await app.getUrl()}`);
