import type { ProviderAdapter } from 'affordance';
import { RecordingAdapter } from 'affordance/testing';

// #region recording
/**
 * Records every request `live` serves. API keys never reach the file; the
 * in-house token and email addresses are taken out too.
 */
export function recordingProvider(live: ProviderAdapter, cassette: string): RecordingAdapter {
  return new RecordingAdapter(live, {
    cassette,
    secrets: () => [process.env['ORDERS_API_TOKEN']],
    redact: (text) => text.replaceAll(/[\w.+-]+@[\w-]+\.[a-z]+/g, '[email]'),
  });
}
// #endregion recording
