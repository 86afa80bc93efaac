import { readFileSync } from 'node:fs';

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

const document = JSON.parse(
  readFileSync(new URL('../fixtures/openai/openapi-schemas.json', import.meta.url), 'utf8'),
) as { $id: string };

/**
 * The spec mixes OpenAPI 3.1 with leftover 3.0 `nullable: true`, which JSON
 * Schema 2020-12 does not know (and Ajv refuses without a `type`). Dropping it
 * reads the document as the 2020-12 it declares: stricter, never looser.
 */
function withoutNullable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullable);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  // A `oneOf` with a `discriminator` picks its branch by that property (OpenAPI), which plain JSON
  // Schema cannot express: `InputItem` lists both `EasyInputMessage` and `Item` (whose
  // `InputMessage` has the same shape), so a user message with a content list matches both and
  // `oneOf` would refuse what the API documents. Read there as `anyOf`: still at least one branch.
  const discriminated = 'discriminator' in value && 'oneOf' in value;
  for (const [key, item] of Object.entries(value)) {
    if (key === 'nullable') continue;
    const name = discriminated && key === 'oneOf' ? 'anyOf' : key;
    copy[name] = key === 'example' || key === 'examples' ? item : withoutNullable(item);
  }
  return copy;
}

// strict: false — the spec carries OpenAPI keywords (discriminator, x-oai*, example) Ajv does not know.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(withoutNullable(document) as object);

const validators = new Map<string, ValidateFunction>();

function validatorFor(schemaName: string): ValidateFunction {
  let validate = validators.get(schemaName);
  if (validate === undefined) {
    validate = ajv.getSchema(`${document.$id}#/components/schemas/${schemaName}`);
    if (validate === undefined) throw new Error(`schema ${schemaName} is not in the fixture`);
    validators.set(schemaName, validate);
  }
  return validate;
}

/** The request schema OpenAI publishes for an endpoint path, if the fixture has it. */
export function requestSchemaFor(path: string): string | undefined {
  if (path.endsWith('/responses')) return 'CreateResponse';
  if (path.endsWith('/chat/completions')) return 'CreateChatCompletionRequest';
  return undefined;
}

/**
 * Validates a request body against OpenAI's published schema
 * (`CreateResponse`, `CreateChatCompletionRequest`); returns the violations
 * as readable lines, empty when the body is valid.
 */
export function openAIRequestViolations(schemaName: string, body: unknown): string[] {
  const validate = validatorFor(schemaName);
  if (validate(body)) return [];
  return describeErrors(validate.errors ?? [], body);
}

/**
 * `oneOf` failures list every branch's complaint; the deepest paths say what
 * is actually wrong, so those come first and the list is cut short.
 */
function describeErrors(errors: readonly ErrorObject[], body: unknown): string[] {
  const depth = (error: ErrorObject): number => error.instancePath.split('/').length;
  const sorted = [...errors].sort((a, b) => depth(b) - depth(a));
  const lines = sorted
    .slice(0, 8)
    .map(
      (error) =>
        `${error.instancePath || '/'} ${error.message ?? 'is invalid'} (${error.schemaPath}) ` +
        `got ${(JSON.stringify(pick(body, error.instancePath)) as string | undefined)?.slice(0, 200) ?? 'nothing'}`,
    );
  return lines;
}

function pick(body: unknown, pointer: string): unknown {
  let value = body;
  for (const key of pointer.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}
