import { run } from '../../examples/quickstart/main.js';

describe('examples/quickstart', () => {
  it('should print the prompt, the strict schema and one message per scripted call', async () => {
    const lines: string[] = [];
    const messages = await run((line) => lines.push(line));
    const output = lines.join('\n');

    expect(output).toContain(
      '## 1. Guidance (guidance)\n\nUse tools when you need up-to-date context.',
    );
    expect(output).toContain('"required":["entityId","includeRelated"]');
    expect(messages).toEqual([
      'Fetched entity acme-42.\n\nEntity acme-42 is documented at https://docs.example.test/acme-42. Related: acme-7.',
      expect.stringMatching(
        /^Tool validation failed: verbose: unknown field .*; entityId: must match/,
      ),
      "No entity 'acme-99'. Check the id.",
    ]);
  });
});
