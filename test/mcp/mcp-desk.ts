/**
 * A small prompt served over MCP in the tests: a read-only lookup, a tool that
 * writes session state (and fails on demand), one that waits to be cancelled,
 * one that reports progress, and an admin section whose tools appear once a
 * call unlocked them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { IsString, Matches } from 'class-validator';

import {
  Describe,
  MarkdownSection,
  Prompt,
  type Session,
  ToolDefinition,
  ToolResult,
} from 'affordance';
import type { McpHttpHandler } from 'affordance/mcp';

class OrderParams {
  @Describe('Order id, e.g. A-1')
  @Matches(/^[A-Z]-\d+$/)
  orderId!: string;
}

class NoteParams {
  @IsString() text!: string;
}

/** A STATE slice `add_note` writes. */
export class Note {
  constructor(readonly text: string) {}
}

/** Written by `unlock_admin`; the admin section is enabled once the session holds one. */
export class AdminUnlocked {
  constructor(readonly by: string) {}
}

/** What the tools saw, for the tests to read. */
export interface DeskLog {
  /** Resolved when `wait_forever` has started. */
  started: Promise<void>;
  /** Resolved with the reason when `wait_forever`'s signal aborts. */
  cancelled: Promise<string>;
}

export function mcpDesk(): { prompt: Prompt; log: DeskLog } {
  let cancel: (reason: string) => void = () => undefined;
  let start: () => void = () => undefined;
  const log: DeskLog = {
    started: new Promise((resolve) => (start = resolve)),
    cancelled: new Promise((resolve) => (cancel = resolve)),
  };
  const desk = [
    new ToolDefinition({
      name: 'lookup_order',
      description: 'Look an order up.',
      params: OrderParams,
      readOnly: true,
      handler: (params) => ToolResult.ok(null, `Order ${params.orderId} is open.`),
    }),
    new ToolDefinition({
      name: 'add_note',
      description: 'Add a note to the desk.',
      params: NoteParams,
      handler: (params, context) => {
        context.session.dispatch(new Note(params.text));
        if (params.text === 'boom') throw new Error('the note store is full');
        return ToolResult.ok(null, `Noted: ${params.text}.`);
      },
    }),
    new ToolDefinition({
      name: 'wait_forever',
      description: 'Wait until cancelled.',
      handler: (_params, context) =>
        new Promise<ToolResult>((_resolve, reject) => {
          start();
          context.signal.addEventListener('abort', () => {
            cancel(String(context.signal.reason));
            reject(new Error('cancelled'));
          });
        }),
    }),
    new ToolDefinition({
      name: 'export_report',
      description: 'Export the report.',
      handler: async (_params, context) => {
        for (let part = 1; part <= 3; part += 1) {
          context.reportProgress({ progress: part, total: 3, message: `part ${part} of 3` });
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        return ToolResult.ok(null, 'Exported 3 parts.');
      },
    }),
    new ToolDefinition({
      name: 'unlock_admin',
      description: 'Unlock the admin tools.',
      handler: (_params, context) => {
        context.session.dispatch(new AdminUnlocked('mcp'));
        return ToolResult.ok(null, 'Admin tools unlocked.');
      },
    }),
  ];
  const admin = new ToolDefinition({
    name: 'purge_cache',
    description: 'Purge the cache.',
    handler: () => ToolResult.ok(null, 'Cache purged.'),
  });
  const prompt = new Prompt({
    ns: 'test',
    key: 'mcp-desk',
    sections: [
      new MarkdownSection({ key: 'desk', title: 'Desk', template: 'Serve orders.', tools: desk }),
      new MarkdownSection({
        key: 'admin',
        title: 'Admin',
        template: 'Admin tools.',
        tools: [admin],
        enabled: (_params: unknown, scope: { session?: Session | undefined }) =>
          (scope.session?.slice(AdminUnlocked).all().length ?? 0) > 0,
      }),
    ],
  });
  return { prompt, log };
}

/** An HTTP server on 127.0.0.1 that hands every request to `handler`; resolves with its URL. */
export async function listen(handler: McpHttpHandler): Promise<{ url: URL; server: Server }> {
  const server = createServer((req, res) => {
    // handle() rejects only for a server fault, which it has already answered with 500.
    handler.handle(req, res).catch((error: unknown) => {
      console.error(error);
      res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), server };
}
