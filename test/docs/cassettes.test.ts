import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PromptEvaluationError } from 'affordance';
import {
  Cassette,
  CassetteMismatchError,
  ScriptedAdapter,
  TEST_STATE_SECRET,
} from 'affordance/testing';

import { askOrderDesk } from '../../docs/snippets/cassettes/order-desk.js';
import {
  cassetteMode,
  orderDeskProvider,
} from '../../docs/snippets/cassettes/order-desk-provider.js';
import { recordingProvider } from '../../docs/snippets/cassettes/recording.js';
import { catchRejection } from '../support/catch-error.js';
import { functionCall, message, responseBody } from '../support/openai-payloads.js';
import { OpenAITestServer } from '../support/openai-test-server.js';
import { cassetteFolder } from '../testing/cassette/cassette-support.js';

const page = readFile(new URL('../../docs/guide/cassettes.md', import.meta.url), 'utf8');

/** Runs `body` with the `CASSETTES` environment variable set to `value` (unset for `undefined`). */
async function withCassettes<T>(value: string | undefined, body: () => Promise<T>): Promise<T> {
  const before = process.env['CASSETTES'];
  if (value === undefined) delete process.env['CASSETTES'];
  else process.env['CASSETTES'] = value;
  try {
    return await body();
  } finally {
    if (before === undefined) delete process.env['CASSETTES'];
    else process.env['CASSETTES'] = before;
  }
}

describe('docs/guide/cassettes.md', () => {
  it('records the order desk from the OpenAI API once, then replays it offline', async () => {
    const folder = cassetteFolder();
    const file = join(folder, 'order-desk.json');
    const server = await OpenAITestServer.start();
    server.reply(
      { json: responseBody([functionCall('order_status', { orderId: 'A-1' }, 'call_1')]) },
      { json: responseBody([{ ...message('A-1 has shipped.'), id: 'msg_1' }]) },
    );
    const recorded = await withCassettes('record-missing', () =>
      askOrderDesk(
        orderDeskProvider(file, () => server.client()),
        'Where is A-1?',
        TEST_STATE_SECRET,
      ),
    );
    await server.close();
    expect(server.problems()).toEqual([]);
    expect(server.requests).toHaveLength(2);

    const replayed = await withCassettes(undefined, () =>
      askOrderDesk(orderDeskProvider(file), 'Where is A-1?', TEST_STATE_SECRET),
    );
    expect(replayed).toEqual(recorded);
    expect(recorded).toEqual({
      answer: 'A-1 has shipped.',
      calls: ['order_status {"orderId":"A-1"} → success'],
    });

    // The page shows the second interaction as prettier lays out JSON: compared as data.
    const shown = Cassette.read(file)?.toJSON().interactions[1];
    const block = /```json\n([\s\S]*?)\n```/.exec(await page)?.[1];
    expect(JSON.parse(block ?? 'null')).toEqual(shown);

    const error = await catchRejection(PromptEvaluationError, () =>
      withCassettes(undefined, () =>
        askOrderDesk(orderDeskProvider(file), 'Where is A-2?', TEST_STATE_SECRET),
      ),
    );
    expect(error.cause).toBeInstanceOf(CassetteMismatchError);
    // The page shows the cassette where the snippet keeps it, not this test's temporary folder.
    const text = (error.cause as Error).message.replace(file, 'test/cassettes/order-desk.json');
    expect(await page).toContain('```text\n' + text + '\n```');
  });

  it('reads the mode from CASSETTES', () => {
    expect(
      [undefined, 'record', 'record-missing', 'yes'].map((value) => cassetteMode(value)),
    ).toEqual(['replay', 'record', 'record-missing', 'replay']);
  });

  it('keeps the in-house token and email addresses out of a recording', async () => {
    const token = 'orders-7c1d9e0b2a';
    const file = join(cassetteFolder(), 'desk.json');
    const before = process.env['ORDERS_API_TOKEN'];
    process.env['ORDERS_API_TOKEN'] = token;
    try {
      const live = new ScriptedAdapter([{ text: `Token ${token}; write to jane@example.com.` }]);
      const { answer } = await askOrderDesk(
        recordingProvider(live, file),
        'Mail me at jane@example.com.',
        TEST_STATE_SECRET,
      );
      expect(answer).toBe(`Token ${token}; write to jane@example.com.`);
    } finally {
      if (before === undefined) delete process.env['ORDERS_API_TOKEN'];
      else process.env['ORDERS_API_TOKEN'] = before;
    }
    const written = readFileSync(file, 'utf8');
    expect([written.includes(token), written.includes('jane@example.com')]).toEqual([false, false]);
    expect(written).toContain('Token [redacted key]; write to [email].');
  });
});
