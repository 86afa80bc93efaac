import OpenAI from 'openai';
import type { ProviderAdapter } from 'affordance';
import { OpenAIAdapter } from 'affordance/openai';
import { type CassetteMode, ReplayAdapter } from 'affordance/testing';

// #region provider
/** `replay` unless `CASSETTES=record-missing` or `CASSETTES=record` asks to record. */
export function cassetteMode(setting = process.env['CASSETTES']): CassetteMode {
  return setting === 'record' || setting === 'record-missing' ? setting : 'replay';
}

/**
 * The provider the order desk tests use: the cassette alone in CI, the real
 * API (and OPENAI_API_KEY) only when recording.
 */
export function orderDeskProvider(
  cassette = 'test/cassettes/order-desk.json',
  client: () => OpenAI = () => new OpenAI(),
): ProviderAdapter {
  const mode = cassetteMode();
  return new ReplayAdapter({
    cassette,
    mode,
    live: mode === 'replay' ? undefined : new OpenAIAdapter(client(), { model: 'gpt-5-mini' }),
  });
}
// #endregion provider
