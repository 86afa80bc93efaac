import { z } from 'zod';

import { MarkdownSection, Prompt, sectionParams } from 'affordance';

import { zodForecast } from './forecast-zod.js';

// #region everywhere
/** A section's params as a schema: its properties are the template's placeholders. */
export const Audience = z.object({
  region: z.string(),
  tone: z.enum(['brief', 'warm']).default('brief'),
});

/** The structured answer as a schema: `response.output` is typed from it. */
export const WeatherAnswer = z.object({
  summary: z.string(),
  umbrella: z.boolean(),
});

export const answerPrompt = new Prompt({
  ns: 'docs',
  key: 'weather-answer',
  sections: [
    new MarkdownSection({
      key: 'weather',
      title: 'Weather',
      params: Audience,
      template: 'You answer travellers in ${region}. Be ${tone}.',
      tools: [zodForecast],
    }),
  ],
  output: WeatherAnswer,
});

/** A schema section's value is passed with `sectionParams`, validated by the schema when rendering. */
export const renderParams = [sectionParams(Audience, { region: 'Norway' })];
// #endregion everywhere
