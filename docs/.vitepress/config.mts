import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type DefaultTheme } from 'vitepress';

/**
 * The docs site: guides under docs/guide, the API reference TypeDoc writes into
 * docs/api (`npm run docs` runs TypeDoc first, then VitePress).
 *
 * A guide is listed in the sidebar only when its page exists, so a page
 * another branch adds appears once it is merged, and a missing one is never a
 * dead link. The order below is the reading order.
 */
const docsRoot = fileURLToPath(new URL('..', import.meta.url));

export const guideGroups: { text: string; items: [slug: string, title: string][] }[] = [
  {
    text: 'Introduction',
    items: [
      ['getting-started', 'Getting started'],
      ['coming-from', 'Coming from other SDKs'],
      ['examples', 'Examples'],
    ],
  },
  {
    text: 'Concepts',
    items: [
      ['tools', 'Tools, results and schemas'],
      ['tools-and-params', 'Params in any schema'],
      ['json-schema-params', 'JSON Schema params'],
      ['sections-and-prompts', 'Sections and prompts'],
      ['sessions-and-state', 'Sessions and state'],
      ['runtime', 'The runtime and the loop'],
      ['loop-control', 'Loop control'],
      ['progressive-disclosure', 'Progressive disclosure'],
      ['streaming', 'Streaming'],
      ['images-and-files', 'Images and files'],
      ['policies-and-approvals', 'Policies and approvals'],
      ['testing', 'Testing your agents'],
      ['cassettes', 'Recording and replaying providers'],
      ['evals', 'Evaluating agents'],
      ['inspector', 'Inspecting sessions'],
      ['planning-and-filesystem', 'Planning and filesystem tools'],
    ],
  },
  {
    text: 'Providers',
    items: [
      ['providers', 'OpenAI, Anthropic, your own'],
      ['azure-openai', 'Azure OpenAI'],
      ['ai-sdk', 'Vercel AI SDK models'],
      ['fallback-and-routing', 'Fallback and routing'],
    ],
  },
  {
    text: 'Production',
    items: [
      ['nestjs', 'NestJS'],
      ['durable', 'Durable sessions and workers'],
      ['storing-media', 'Storing media'],
      ['mcp', 'Model Context Protocol'],
      ['observability', 'Observability'],
    ],
  },
  {
    text: 'Background',
    items: [
      ['guarantees', 'Guarantees and limits'],
      ['performance', 'Performance'],
      ['architecture', 'Architecture'],
      ['development', 'Working on affordance'],
    ],
  },
];

function guideSidebar(): DefaultTheme.SidebarItem[] {
  return guideGroups
    .map((group) => ({
      text: group.text,
      items: group.items
        .filter(([slug]) => existsSync(`${docsRoot}/guide/${slug}.md`))
        .map(([slug, text]) => ({ text, link: `/guide/${slug}` })),
    }))
    .filter((group) => group.items.length > 0);
}

function apiSidebar(): DefaultTheme.SidebarItem[] {
  const file = `${docsRoot}/api/typedoc-sidebar.json`;
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8')) as DefaultTheme.SidebarItem[];
}

export default defineConfig({
  title: 'affordance',
  description: 'Typed, validated, observable tools for large language models in TypeScript.',
  cleanUrls: false,
  lastUpdated: false,
  srcExclude: ['snippets/**'],
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }]],
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Reference', link: '/api/' },
    ],
    sidebar: {
      '/guide/': guideSidebar(),
      '/api/': [{ text: 'API reference', link: '/api/', items: apiSidebar() }],
    },
    search: { provider: 'local' },
    outline: [2, 3],
  },
});
