import type { AffordanceRuntime, Prompt, Session } from 'affordance';

/** Streams one evaluation, writing the answer as it comes and a line per tool call. */
export async function printStream(
  runtime: AffordanceRuntime,
  prompt: Prompt,
  session: Session,
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<void> {
  const stream = runtime.stream(prompt, { input: 'How do I reset my password?', session });
  for await (const part of stream) {
    if (part.type === 'text-delta') write(part.delta);
    else if (part.type === 'tool-call-end') write(`[${part.event.name}: ${part.event.outcome}]\n`);
    else if (part.type === 'answer') write(`\n(${part.response.turns} turns)\n`);
    else if (part.type === 'error') throw part.error;
  }
}
