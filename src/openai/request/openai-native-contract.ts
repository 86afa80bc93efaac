import type { NativeToolContract } from '../../provider/index.js';

const lowMediumHigh = ['low', 'medium', 'high'] as const;

/**
 * The Responses API fields of each native tool type, from OpenAI's published
 * API reference (the `tools[]` schemas `WebSearchTool`, `FileSearchTool`,
 * `CodeInterpreterTool`, `ImageGenTool`, `MCPTool`, `FunctionShellToolParam`).
 * A `NativeTool`'s `config` may set these fields and no others; `type` may
 * name a dated version of the tool.
 */
export const openaiNativeContract: NativeToolContract = {
  web_search: {
    type: [['web_search', 'web_search_2025_08_26']],
    filters: ['object', 'null'],
    user_location: ['object', 'null'],
    search_context_size: [lowMediumHigh],
    external_web_access: ['boolean'],
  },
  file_search: {
    type: [['file_search']],
    vector_store_ids: ['string[]'],
    max_num_results: ['integer'],
    ranking_options: ['object'],
    filters: ['object', 'null'],
  },
  code_interpreter: {
    type: [['code_interpreter']],
    container: ['string', 'object'],
    allowed_callers: ['string[]', 'null'],
  },
  image_generation: {
    type: [['image_generation']],
    model: ['string'],
    quality: [[...lowMediumHigh, 'auto']],
    size: ['string'],
    output_format: [['png', 'webp', 'jpeg']],
    output_compression: ['integer'],
    moderation: [['auto', 'low']],
    background: [['transparent', 'opaque', 'auto']],
    input_fidelity: [['high', 'low'], 'null'],
    input_image_mask: ['object'],
    partial_images: ['integer'],
    action: [['generate', 'edit', 'auto']],
  },
  mcp: {
    type: [['mcp']],
    server_label: ['string'],
    server_url: ['string'],
    connector_id: ['string'],
    tunnel_id: ['string'],
    authorization: ['string'],
    server_description: ['string'],
    headers: ['object', 'null'],
    allowed_tools: ['string[]', 'object', 'null'],
    allowed_callers: ['string[]', 'null'],
    require_approval: [['always', 'never'], 'object', 'null'],
    defer_loading: ['boolean'],
  },
  shell: {
    type: [['shell']],
    environment: ['object', 'null'],
    allowed_callers: ['string[]', 'null'],
  },
};
