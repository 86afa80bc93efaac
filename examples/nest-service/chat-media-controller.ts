import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  Controller,
  Get,
  HttpException,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';

import { CHAT_UPLOAD_LIMIT, ChatMedia, UploadRefused } from './chat-media.js';

/** What `POST /chat/uploads` answers. */
export interface UploadAnswer {
  /** Send it as `upload` with the message: `GET /chat/stream?message=...&upload=<id>`. */
  readonly uploadId: string;
  readonly mediaType: string;
  readonly size: number;
}

/**
 * The chat page's files: `POST /chat/uploads?name=<file name>` takes the
 * bytes of one image or PDF as the request body (its `content-type` the
 * declared media type; at most {@link CHAT_UPLOAD_LIMIT} bytes, refused with
 * 413 beyond) and answers the upload's id; `GET /chat/media/<hash>` serves an
 * image a tool showed.
 */
@Controller('chat')
export class ChatMediaController {
  constructor(private readonly media: ChatMedia) {}

  @Post('uploads')
  async upload(
    @Req() request: IncomingMessage,
    @Query('name') name: string | undefined,
  ): Promise<UploadAnswer> {
    const bytes = await readCapped(request, CHAT_UPLOAD_LIMIT);
    const filename = name === undefined ? undefined : safeName(name);
    try {
      const declared = request.headers['content-type'] ?? '';
      const { id, part } = this.media.upload(bytes, declared, filename);
      return { uploadId: id, mediaType: part.mediaType, size: part.size };
    } catch (error) {
      if (error instanceof UploadRefused) throw new HttpException(error.message, error.status);
      throw error;
    }
  }

  @Get('media/:hash')
  image(@Param('hash') hash: string, @Res() response: ServerResponse): void {
    const part = this.media.shown(hash);
    if (part?.bytes === undefined) {
      throw new NotFoundException(`No image ${hash.slice(0, 80)} was shown in this chat.`);
    }
    response.writeHead(200, {
      'content-type': part.mediaType,
      'content-length': part.bytes.byteLength,
      'cache-control': 'private, max-age=3600, immutable',
      'x-content-type-options': 'nosniff',
    });
    response.end(part.bytes);
  }
}

/** The request body, refused with 413 once it passes `limit` bytes. */
async function readCapped(request: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).byteLength;
    if (size > limit) {
      request.destroy();
      throw tooLarge(limit);
    }
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

function tooLarge(limit: number): HttpException {
  return new HttpException(
    `The file is larger than the chat's upload limit of ${limit} bytes (${limit / 1024 / 1024} MiB). Fix: upload a smaller image or PDF.`,
    413,
  );
}

/** The last path segment of `name`, at most 100 characters, for the model to see as the file name. */
function safeName(name: string): string | undefined {
  const last = name.split(/[/\\]/).pop()?.slice(0, 100) ?? '';
  return last === '' ? undefined : last;
}
