import { createHash } from 'node:crypto';

import { Media } from '../../index.js';
import { outputJsonSchema, type ProviderRequest } from '../../provider/index.js';
import type { CassetteMessage, CassetteRequest } from './cassette-format.js';
import type { CassetteRedactor } from './cassette-redactor.js';
import { stableJson } from './stable-json.js';

/**
 * The part of `request` a cassette records and matches on, redacted: the
 * prompt label, the messages (without provider items or tool result
 * objects), the tools' names, descriptions, schemas and strictness, the tool
 * choice and the output's JSON Schema.
 */
export function cassetteRequestOf(
  request: ProviderRequest,
  redactor: CassetteRedactor,
): CassetteRequest {
  const messages = request.messages.map((message): CassetteMessage => {
    switch (message.role) {
      case 'assistant':
        return {
          role: 'assistant',
          content: message.content,
          toolCalls: message.toolCalls.map((call) => ({
            callId: call.callId,
            name: call.name,
            arguments: call.arguments,
          })),
        };
      case 'tool':
        return {
          role: 'tool',
          callId: message.callId,
          name: message.name,
          content: message.content,
        };
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return {
          role: 'user',
          content:
            typeof message.content === 'string'
              ? message.content
              : message.content.map((part) => (part.type === 'text' ? part : Media.ref(part))),
        };
    }
  });
  const output =
    request.output === undefined
      ? null
      : {
          container: request.output.container,
          schema: outputJsonSchema(request.output.type, request.output.container),
        };
  const recorded: CassetteRequest = {
    prompt: request.prompt.label,
    messages,
    tools: request.tools.map((spec) => ({
      name: spec.name,
      description: spec.description,
      parameters: spec.parameters,
      strict: spec.strict,
    })),
    toolChoice: request.toolChoice,
    output,
  };
  // The redactor's copy is plain JSON (undefined fields dropped), as the file holds it.
  return redactor.json(recorded);
}

/** The stable hash of a recorded request: equal requests (key order aside), equal keys. */
export function cassetteKey(request: CassetteRequest): string {
  return createHash('sha256').update(stableJson(request)).digest('hex').slice(0, 32);
}
