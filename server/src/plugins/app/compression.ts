import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import fp from 'fastify-plugin';
import { acceptedEncodings } from '../../http/static-files';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this an answer fits in a packet or two: compressing it would only cost time. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * API answers (JSON) above 1 KB compressed for clients that accept it: works lists, role
 * libraries, cut data and the OpenAPI document shrink 5 to 10 times. Brotli at quality 5 costs
 * about a millisecond for 100 KB, in the thread pool, not on the event loop. Built files are not
 * compressed here: the build writes their copies once (`http/static-files.ts`), and event
 * streams write to the socket themselves, so neither reaches this hook.
 */
export default fp(async (app) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('application/json') || reply.getHeader('content-encoding')) {
      return payload;
    }
    reply.header('vary', 'accept-encoding');
    const size = Buffer.byteLength(payload);
    if (size < COMPRESS_MIN_BYTES || request.method === 'HEAD') return payload;
    const accepted = acceptedEncodings(request.headers['accept-encoding']);
    let compressed: Buffer;
    if (accepted.has('br')) {
      compressed = await brotli(payload, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_SIZE_HINT]: size,
        },
      });
      reply.header('content-encoding', 'br');
    } else if (accepted.has('gzip')) {
      compressed = await gzipAsync(payload, { level: 6 });
      reply.header('content-encoding', 'gzip');
    } else {
      return payload;
    }
    reply.removeHeader('content-length');
    return compressed;
  });
});
