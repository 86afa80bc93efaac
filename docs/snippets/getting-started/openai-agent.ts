import 'reflect-metadata';
import { Container } from 'inversify';
import OpenAI from 'openai';
import { installAffordance, ProviderAdapter, Session } from 'affordance';
import { OpenAIAdapter, OpenAIAdapterOptions } from 'affordance/openai';
import { WeatherService, weatherPrompt } from './weather.js';

/**
 * The quickstart agent on OpenAI's Responses API. `new OpenAI()` reads
 * OPENAI_API_KEY (and OPENAI_BASE_URL for a compatible server).
 */
export async function askWeather(question: string, openai: OpenAI = new OpenAI()) {
  const container = new Container();
  const runtime = installAffordance(container);
  container.bind(WeatherService).toSelf().inSingletonScope();
  // #region adapter
  container.bind(OpenAI).toConstantValue(openai);
  container.bind(OpenAIAdapterOptions).toConstantValue({ model: 'gpt-5-mini' });
  container.bind(ProviderAdapter).to(OpenAIAdapter).inSingletonScope();
  // #endregion adapter

  const session = new Session();
  const response = await runtime.evaluate(weatherPrompt, { input: question, session });
  return { answer: response.text, session };
}
