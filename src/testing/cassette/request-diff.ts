import type { CassetteRequest } from './cassette-format.js';

/** One difference between a recorded request and the one sent. */
export interface RequestDifference {
  /** Where it is, e.g. `messages[0].content` or `tools['lookup_order'].parameters.required`. */
  readonly path: string;
  /** What differs, for people: the recorded and the sent value, shown short. */
  readonly description: string;
}

/** How much of a value a difference shows. */
const SHOWN = 80;
/** Characters shown before the first differing one of two strings. */
const BEFORE = 24;

/**
 * The differences between a recorded request and the one sent, field by field:
 * messages by position, tools by name, then the tool choice and the output.
 */
export function requestDifferences(
  recorded: CassetteRequest,
  sent: CassetteRequest,
): RequestDifference[] {
  const found: RequestDifference[] = [];
  compare('prompt', recorded.prompt, sent.prompt, found);
  const count = Math.max(recorded.messages.length, sent.messages.length);
  for (let index = 0; index < count; index++) {
    const before = recorded.messages[index];
    const after = sent.messages[index];
    const path = `messages[${index}]`;
    if (before === undefined) {
      found.push({ path, description: `${roleOf(after)} message sent, none recorded here` });
    } else if (after === undefined) {
      found.push({ path, description: `${roleOf(before)} message recorded, none sent here` });
    } else {
      compare(`${path} (${roleOf(after)})`, before, after, found);
    }
  }
  const recordedTools = new Map(recorded.tools.map((tool) => [tool.name, tool]));
  const sentTools = new Map(sent.tools.map((tool) => [tool.name, tool]));
  for (const [name, tool] of sentTools) {
    const before = recordedTools.get(name);
    if (before === undefined)
      found.push({ path: `tools['${name}']`, description: 'sent, not recorded' });
    else compare(`tools['${name}']`, before, tool, found);
  }
  for (const name of recordedTools.keys()) {
    if (!sentTools.has(name))
      found.push({ path: `tools['${name}']`, description: 'recorded, not sent' });
  }
  const recordedOrder = recorded.tools.map((tool) => tool.name).join(', ');
  const sentOrder = sent.tools.map((tool) => tool.name).join(', ');
  if (found.every((item) => !item.path.startsWith('tools')) && recordedOrder !== sentOrder) {
    found.push({
      path: 'tools',
      description: `order: recorded [${recordedOrder}], sent [${sentOrder}]`,
    });
  }
  compare('toolChoice', recorded.toolChoice, sent.toolChoice, found);
  compare('output', recorded.output, sent.output, found);
  return found;
}

function roleOf(message: { readonly role: string; readonly name?: string } | undefined): string {
  if (message === undefined) return 'no';
  return message.role === 'tool' && message.name !== undefined
    ? `tool '${message.name}'`
    : message.role;
}

/** Adds the differences between `before` and `after` under `path`, down to the leaves. */
function compare(path: string, before: unknown, after: unknown, found: RequestDifference[]): void {
  if (isRecord(before) && isRecord(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of keys) compare(`${path}.${key}`, before[key], after[key], found);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const count = Math.max(before.length, after.length);
    for (let index = 0; index < count; index++) {
      compare(`${path}[${index}]`, before[index] as unknown, after[index] as unknown, found);
    }
    return;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  if (typeof before === 'string' && typeof after === 'string') {
    found.push({ path, description: stringChange(before, after) });
    return;
  }
  found.push({ path, description: `recorded ${shown(before)}, sent ${shown(after)}` });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Two strings shown from a little before their first differing character. */
function stringChange(before: string, after: string): string {
  let at = 0;
  while (at < before.length && at < after.length && before[at] === after[at]) at++;
  const start = Math.max(0, at - BEFORE);
  const excerpt = (text: string) => {
    const cut = text.slice(start, start + SHOWN);
    return `${start > 0 ? '…' : ''}${JSON.stringify(cut)}${start + SHOWN < text.length ? '…' : ''}`;
  };
  return `differs at character ${at}: recorded ${excerpt(before)}, sent ${excerpt(after)}`;
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}
