import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ErrorCode,
  MAX_BOOK_UPLOAD_BYTES,
  WRITING_STREAM_PATH,
  writingEndpoints,
  type TextResult,
  type WritingStreamEvent,
} from '@kol/shared-sdk/contracts';
import { Type } from 'typebox';
import { ApiError, badRequest, notFound } from '../../../http/api-error';
import { LOCAL_LIBRARY_ID } from '../../../repositories/books';
import { BookRefused } from '../../../writing/books/parse';
import { parseBookOffThread, type CountedBook } from '../../../writing/books/parse-off-thread';
import { BOOK_NOT_FOUND, TASK_NOT_FOUND } from '../../../writing/service';
import { RESTART_MESSAGE } from '../../../writing/tasks';
import { defineRoute } from '../../define-route';

const LIBRARY = { id: LOCAL_LIBRARY_ID, name: '本地书库', builtin: true };
const PLATFORM_NOT_FOUND = '没有这个书籍平台';
const SIZE_MESSAGE = `书籍文件不能超过 ${MAX_BOOK_UPLOAD_BYTES / 1024 / 1024} MB`;
const HEARTBEAT_MS = 15_000;
/** How often a stream of a task running in another process reads the row. */
const POLL_MS = 500;

/** Book library, generation tasks and their stream (see WRITING_STREAM_PATH). */
export default async function writingRoutes(app: FastifyInstance) {
  // Registered here, so only these routes accept multipart bodies.
  await app.register(multipart, {
    limits: { fileSize: MAX_BOOK_UPLOAD_BYTES, files: 1, fields: 10, parts: 20 },
    throwFileSizeLimit: false,
  });

  defineRoute(app, writingEndpoints.getPlatforms, async ({ request, reply }) => {
    await app.auth.requireUser(request, reply);
    // Other platforms (an external book source) would be listed here when configured.
    return [LIBRARY];
  });

  defineRoute(app, writingEndpoints.search, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (query.platformId !== LOCAL_LIBRARY_ID) throw notFound(PLATFORM_NOT_FOUND);
    // An empty name lists the catalogue (the samples and the user's own books) to pick from.
    return app.books.search(user.id, (query.bookName ?? '').trim());
  });

  defineRoute(app, writingEndpoints.searchCbid, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (query.platformId !== undefined && query.platformId !== LOCAL_LIBRARY_ID) {
      throw notFound(PLATFORM_NOT_FOUND);
    }
    const id = /^\d{1,9}$/.test(query.cbid.trim()) ? Number(query.cbid.trim()) : null;
    const book = id ? await app.books.detail(user.id, id) : null;
    if (!book) throw notFound(`没有找到编号为 ${query.cbid.trim()} 的书`);
    return book;
  });

  defineRoute(app, writingEndpoints.getChapterContent, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const found = await app.books.chapters(user.id, query.bookId, [query.chapterId]);
    if (!found) throw notFound(BOOK_NOT_FOUND);
    const chapter = found.chapters[0];
    if (!chapter) throw notFound('没有找到这一章');
    return chapter;
  });

  defineRoute(app, writingEndpoints.uploadBook, async ({ request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (!request.isMultipart()) throw badRequest('请以 multipart/form-data 上传，字段名为 file');
    const file = await request.file();
    if (!file || file.fieldname !== 'file')
      throw badRequest('请选择要上传的书籍文件（字段名 file）');
    const bytes = await file.toBuffer();
    if (file.file.truncated) throw new ApiError(ErrorCode.payloadTooLarge, SIZE_MESSAGE);
    if (bytes.length === 0) throw badRequest('上传的文件是空的');
    let book: CountedBook;
    try {
      // In a worker with a time and memory limit: never on this thread (see parse-off-thread.ts).
      book = await parseBookOffThread(bytes, file.filename);
    } catch (error) {
      if (!(error instanceof BookRefused)) throw error;
      // A parser failure that is not a plain refusal is worth a look; the user still gets a 400.
      if (error.cause) request.log.error({ err: error.cause }, 'book parser failed');
      throw badRequest(error.message);
    }
    const bookId = await app.books.create(user.id, {
      title: book.title.slice(0, 100),
      author: book.author.slice(0, 100),
      intro: book.intro,
      chapters: book.chapters,
    });
    const detail = await app.books.detail(user.id, bookId);
    if (!detail) throw new Error(`book ${bookId} vanished after insert`);
    return detail;
  });

  defineRoute(app, writingEndpoints.generate, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return { taskId: await app.writing.generate(user.id, body, 'generate') };
  });

  defineRoute(app, writingEndpoints.generateAsync, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return { taskId: await app.writing.generate(user.id, body, 'async') };
  });

  defineRoute(app, writingEndpoints.submitTweetsTask, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return { taskId: await app.writing.tweets(user.id, body) };
  });

  defineRoute(app, writingEndpoints.genResult, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.writing.result(user.id, query.taskId);
  });

  defineRoute(app, writingEndpoints.getGenerateAsyncResult, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.writing.result(user.id, query.taskId);
  });

  defineRoute(app, writingEndpoints.cancel, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    await app.writing.cancel(user.id, body.taskId);
    return null;
  });

  app.get(
    WRITING_STREAM_PATH,
    {
      // As defineRoute does for a route that needs a session: 401 before the query is validated.
      onRequest: app.auth.requireSession,
      schema: {
        summary: '生成文本的事件流（text/event-stream，不是 JSON 信封）',
        tags: ['writing'],
        querystring: Type.Object({
          taskId: Type.String({ title: '任务编号', minLength: 1, maxLength: 64 }),
        }),
        security: [{ session: [] }],
      },
    },
    async (request, reply) => {
      const user = await app.auth.requireUser(request, reply);
      const { taskId } = request.query as { taskId: string };
      const row = await app.writingTasks.find(taskId);
      if (!row || row.userId !== user.id) throw notFound(TASK_NOT_FOUND);
      streamTask(app, request, reply, taskId, user.id);
    },
  );
}

function streamTask(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  taskId: string,
  userId: number,
) {
  // From here on the answer is ours to write: an event stream, not the JSON envelope.
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx and similar proxies would otherwise hold the pieces back.
    'x-accel-buffering': 'no',
  });
  raw.flushHeaders();
  let closed = false;
  const cleanups: Array<() => void> = [];
  const close = () => {
    if (closed) return;
    closed = true;
    for (const cleanup of cleanups) cleanup();
    raw.end();
  };
  const send = (event: WritingStreamEvent) => {
    if (closed) return;
    const data =
      event.type === 'delta'
        ? { text: event.text }
        : event.type === 'done'
          ? { result: event.result }
          : { message: event.message };
    raw.write(`event: ${event.type}\ndata: ${JSON.stringify(data)}\n\n`);
    if (event.type !== 'delta') close();
  };
  request.raw.on('close', close);
  cleanups.push(() => request.raw.off('close', close));
  const heartbeat = setInterval(() => {
    if (!closed) raw.write(': ping\n\n');
  }, HEARTBEAT_MS);
  cleanups.push(() => clearInterval(heartbeat));

  const live = app.writing.runner.subscribe(taskId, send);
  if (live) {
    cleanups.push(live.unsubscribe);
    send({ type: 'delta', text: live.text });
    return;
  }
  // Finished, or running in another process: follow the row.
  let sent = '';
  const finish = (result: TextResult) => {
    if (result.text.length > sent.length)
      send({ type: 'delta', text: result.text.slice(sent.length) });
    if (result.state === 'failed')
      send({ type: 'error', message: result.error ?? RESTART_MESSAGE });
    else send({ type: 'done', result });
  };
  const poll = async () => {
    if (closed) return;
    try {
      const result = await app.writing.result(userId, taskId);
      if (result.state === 'queued' || result.state === 'running') {
        if (result.text.startsWith(sent) && result.text.length > sent.length) {
          const piece = result.text.slice(sent.length);
          sent = result.text;
          send({ type: 'delta', text: piece });
        } else if (sent === '') send({ type: 'delta', text: '' });
        const timer = setTimeout(() => void poll(), POLL_MS);
        cleanups.push(() => clearTimeout(timer));
      } else {
        finish(result);
      }
    } catch (error) {
      request.log.warn({ err: error, taskId }, 'writing stream poll failed');
      send({ type: 'error', message: '读取生成进度失败，请刷新页面' });
    }
  };
  void poll();
}
