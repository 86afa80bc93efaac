import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';

import { ScriptedAdapter } from 'affordance/testing';

import { WeatherAppModule } from '../../docs/snippets/nestjs/weather.module.js';

/** The NestJS page's module, served on 127.0.0.1 and asked over real HTTP. */
describe('docs: NestJS', () => {
  let app: INestApplication | undefined;

  afterEach(async () => {
    await app?.close();
  });

  it('should answer POST /weather, the section seeing each request’s own caller', async () => {
    // One scripted model per evaluation: a tool call, then the answer.
    const model = () =>
      new ScriptedAdapter([
        { toolCalls: [{ name: 'get_forecast', arguments: { city: 'Paris' } }] },
        { text: 'Sunny.' },
      ]);
    const nest = await NestFactory.create(
      WeatherAppModule.withModel(model),
      new ExpressAdapter(),
      // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest types its options as a class; literals are how it is configured.
      { logger: false },
    );
    app = nest;
    await nest.listen(0, '127.0.0.1');
    const url = `${await nest.getUrl()}/weather`;
    const ask = async (user: string) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-user': user },
        body: JSON.stringify({ question: 'Weather in Paris?' }),
      });
      const body: unknown = await response.json();
      return { status: response.status, body };
    };

    const [ada, bob] = await Promise.all([ask('ada'), ask('bob')]);
    const tools = (user: string) => [`Forecast for Paris, asked by ${user}.`];
    expect(ada).toEqual({ status: 201, body: { answer: 'Sunny.', tools: tools('ada') } });
    expect(bob).toEqual({ status: 201, body: { answer: 'Sunny.', tools: tools('bob') } });
  });
});
