/**
 * An exhaustive hand-written check of a Messages API request body against
 * the installed `@anthropic-ai/sdk` 1.12 request types
 * (`MessageCreateParamsBase` and the param types it names, in
 * `resources/messages/messages.ts`): for every object the adapter sends, the
 * keys its type allows and the type of each value. There is no published
 * OpenAPI document for the Messages API, so this list is the reference; a key
 * the adapter starts sending must be added here, against the SDK type.
 */
type Json = Record<string, unknown>;
type Check = (value: unknown, path: string, out: string[]) => void;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const string: Check = (value, path, out) => {
  if (typeof value !== 'string') out.push(`${path}: expected a string`);
};
const boolean: Check = (value, path, out) => {
  if (typeof value !== 'boolean') out.push(`${path}: expected a boolean`);
};
const number: Check = (value, path, out) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) out.push(`${path}: expected a number`);
};
const positiveInteger: Check = (value, path, out) => {
  if (!Number.isSafeInteger(value) || (value as number) < 1)
    out.push(`${path}: expected a positive integer`);
};
const anyValue: Check = () => undefined;
const oneOf =
  (...values: readonly string[]): Check =>
  (value, path, out) => {
    if (!values.includes(value as string))
      out.push(`${path}: expected one of ${values.join(', ')}, got ${JSON.stringify(value)}`);
  };
const nullable =
  (check: Check): Check =>
  (value, path, out) => {
    if (value !== null) check(value, path, out);
  };
const arrayOf =
  (check: Check): Check =>
  (value, path, out) => {
    if (!Array.isArray(value)) out.push(`${path}: expected an array`);
    else
      value.forEach((item, index) => {
        check(item, `${path}[${index}]`, out);
      });
  };
const jsonObject: Check = (value, path, out) => {
  if (!isObject(value)) out.push(`${path}: expected an object`);
};

/** An object with `required` and `optional` keys, nothing else. */
function object(
  required: Readonly<Record<string, Check>>,
  optional: Readonly<Record<string, Check>> = {},
): Check {
  return (value, path, out) => {
    if (!isObject(value)) {
      out.push(`${path}: expected an object`);
      return;
    }
    for (const [key, check] of Object.entries(required)) {
      if (!(key in value)) out.push(`${path}.${key}: required`);
      else check(value[key], `${path}.${key}`, out);
    }
    for (const [key, item] of Object.entries(value)) {
      if (key in required) continue;
      const check = optional[key];
      if (check === undefined) out.push(`${path}.${key}: not a field of this type`);
      else check(item, `${path}.${key}`, out);
    }
  };
}

/** A union discriminated by `type`. */
function byType(variants: Readonly<Record<string, Check>>, path0 = 'type'): Check {
  return (value, path, out) => {
    const type = isObject(value) ? value[path0] : undefined;
    const check = typeof type === 'string' ? variants[type] : undefined;
    if (check === undefined) out.push(`${path}: unknown ${path0} ${JSON.stringify(type)}`);
    else check(value, path, out);
  };
}

const cacheControl = nullable(object({ type: oneOf('ephemeral') }, { ttl: oneOf('5m', '1h') }));
const caller = byType({
  direct: object({ type: string }),
  code_execution_20250825: object({ type: string, tool_id: string }),
  code_execution_20260120: object({ type: string, tool_id: string }),
});
const citation = object(
  { type: string },
  {
    cited_text: string,
    document_index: number,
    document_title: nullable(string),
    start_char_index: number,
    end_char_index: number,
    start_page_number: number,
    end_page_number: number,
    start_block_index: number,
    end_block_index: number,
    encrypted_index: string,
    title: nullable(string),
    url: string,
    file_id: nullable(string),
    search_result_index: number,
    source: string,
  },
);
const textBlock = object(
  { type: oneOf('text'), text: string },
  { cache_control: cacheControl, citations: nullable(arrayOf(citation)) },
);
// ImageBlockParam and DocumentBlockParam with the sources affordance sends (base64, url, text).
const imageBlock = object(
  {
    type: oneOf('image'),
    source: byType({
      base64: object({
        type: oneOf('base64'),
        media_type: oneOf('image/jpeg', 'image/png', 'image/gif', 'image/webp'),
        data: string,
      }),
      url: object({ type: oneOf('url'), url: string }),
    }),
  },
  { cache_control: cacheControl },
);
const documentBlock = object(
  {
    type: oneOf('document'),
    source: byType({
      base64: object({ type: oneOf('base64'), media_type: oneOf('application/pdf'), data: string }),
      text: object({ type: oneOf('text'), media_type: oneOf('text/plain'), data: string }),
      url: object({ type: oneOf('url'), url: string }),
    }),
  },
  { cache_control: cacheControl, title: nullable(string), context: nullable(string) },
);
const toolResultContent = byType({ text: textBlock, image: imageBlock, document: documentBlock });
const toolResult = object(
  { type: oneOf('tool_result'), tool_use_id: string },
  {
    content: (v, p, o) => {
      if (typeof v !== 'string') arrayOf(toolResultContent)(v, p, o);
    },
    is_error: boolean,
    cache_control: cacheControl,
  },
);
const serverResult = (withCaller: boolean): Check =>
  object(
    { type: string, tool_use_id: string, content: anyValue },
    withCaller ? { cache_control: cacheControl, caller } : { cache_control: cacheControl },
  );
const useBlock = (type: string): Check =>
  object(
    { type: oneOf(type), id: string, name: string, input: jsonObject },
    { cache_control: cacheControl, caller },
  );

const userBlock = byType({
  text: textBlock,
  tool_result: toolResult,
  image: imageBlock,
  document: documentBlock,
});
const assistantBlock = byType({
  text: textBlock,
  thinking: object({ type: string, thinking: string, signature: string }),
  redacted_thinking: object({ type: string, data: string }),
  tool_use: useBlock('tool_use'),
  server_tool_use: useBlock('server_tool_use'),
  web_search_tool_result: serverResult(true),
  web_fetch_tool_result: serverResult(true),
  code_execution_tool_result: serverResult(false),
  bash_code_execution_tool_result: serverResult(false),
  text_editor_code_execution_tool_result: serverResult(false),
  tool_search_tool_result: serverResult(false),
});
const content =
  (block: Check): Check =>
  (value, path, out) => {
    if (typeof value === 'string') return;
    arrayOf(block)(value, path, out);
    if (Array.isArray(value) && value.length === 0) out.push(`${path}: empty content`);
  };
const message: Check = (value, path, out) => {
  const role = isObject(value) ? value['role'] : undefined;
  if (role === 'user') object({ role: string, content: content(userBlock) })(value, path, out);
  else if (role === 'assistant')
    object({ role: string, content: content(assistantBlock) })(value, path, out);
  else out.push(`${path}.role: expected user or assistant`);
};
const inputSchema = object(
  { type: oneOf('object') },
  {
    properties: jsonObject,
    required: arrayOf(string),
    additionalProperties: anyValue,
    $defs: jsonObject,
    description: string,
    title: string,
  },
);
const domains = nullable(arrayOf(string));
const serverToolFields = {
  allowed_domains: domains,
  blocked_domains: domains,
  cache_control: cacheControl,
  max_uses: nullable(positiveInteger),
};
const tool = byType({
  custom: object(
    { name: string, input_schema: inputSchema },
    { type: anyValue, description: string, strict: boolean, cache_control: cacheControl },
  ),
  web_search_20250305: object(
    { type: string, name: oneOf('web_search') },
    { ...serverToolFields, user_location: anyValue },
  ),
  web_search_20260209: object(
    { type: string, name: oneOf('web_search') },
    { ...serverToolFields, user_location: anyValue },
  ),
  web_fetch_20250910: object(
    { type: string, name: oneOf('web_fetch') },
    { ...serverToolFields, citations: anyValue, max_content_tokens: nullable(positiveInteger) },
  ),
  code_execution_20250825: object(
    { type: string, name: oneOf('code_execution') },
    { cache_control: cacheControl },
  ),
  code_execution_20260120: object(
    { type: string, name: oneOf('code_execution') },
    { cache_control: cacheControl },
  ),
});
const anyTool: Check = (value, path, out) => {
  // A client tool has no `type` (or `custom`).
  if (isObject(value) && value['type'] === undefined) tool({ ...value, type: 'custom' }, path, out);
  else tool(value, path, out);
};
const toolChoice = byType({
  auto: object({ type: string }, { disable_parallel_tool_use: boolean }),
  any: object({ type: string }, { disable_parallel_tool_use: boolean }),
  tool: object({ type: string, name: string }, { disable_parallel_tool_use: boolean }),
  none: object({ type: string }),
});

const body = object(
  { model: string, max_tokens: positiveInteger, messages: arrayOf(message) },
  {
    system: (v, p, o) => {
      if (typeof v !== 'string') arrayOf(textBlock)(v, p, o);
    },
    tools: arrayOf(anyTool),
    tool_choice: toolChoice,
    thinking: object(
      { type: oneOf('enabled'), budget_tokens: positiveInteger },
      { display: oneOf('summarized', 'omitted') },
    ),
    temperature: number,
    top_p: number,
    top_k: positiveInteger,
    stop_sequences: arrayOf(string),
    metadata: object({}, { user_id: nullable(string) }),
    service_tier: oneOf('auto', 'standard_only'),
    output_config: object(
      {},
      { format: object({ type: oneOf('json_schema'), schema: jsonObject }) },
    ),
    stream: boolean,
  },
);

/** Every way `request` breaks the SDK's `MessageCreateParams` types (empty when it fits). */
export function anthropicRequestViolations(request: unknown): string[] {
  const out: string[] = [];
  body(request, 'body', out);
  const messages =
    isObject(request) && Array.isArray(request['messages']) ? (request['messages'] as Json[]) : [];
  if (messages[0]?.['role'] !== 'user')
    out.push('body.messages[0]: the first message must be a user message');
  return out;
}
