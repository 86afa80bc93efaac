import type { NativeFieldType, NativeToolContract } from '../../provider/index.js';

type Fields = Readonly<Record<string, readonly NativeFieldType[]>>;

/** Fields every Anthropic server tool takes; `type` picks the version. */
const common: Fields = {
  type: ['string'],
  allowed_callers: ['string[]'],
  cache_control: ['object', 'null'],
  defer_loading: ['boolean'],
  strict: ['boolean'],
};

/** Fields the web tools add. */
const web: Fields = {
  allowed_domains: ['string[]', 'null'],
  blocked_domains: ['string[]', 'null'],
  max_uses: ['integer', 'null'],
  response_inclusion: [['full', 'excluded']],
};

/**
 * The Messages API fields of each server tool, from Anthropic's published API
 * reference (`WebSearchTool20250305`… `WebSearchTool20260318`,
 * `WebFetchTool20250910`… `WebFetchTool20260318`, `CodeExecutionTool20250522`…
 * `CodeExecutionTool20260521`; the union of a tool's versions). The adapter
 * checks that `type` names a version of the same tool.
 */
export const anthropicNativeContract: NativeToolContract = {
  web_search: Object.assign({}, common, web, { user_location: ['object', 'null'] }),
  web_fetch: Object.assign({}, common, web, {
    citations: ['object', 'null'],
    max_content_tokens: ['integer', 'null'],
    url_sources: ['object', 'null'],
    use_cache: ['boolean'],
  }),
  code_execution: common,
};
