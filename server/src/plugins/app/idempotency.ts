import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_MAX_CHARS,
  IDEMPOTENCY_KEY_TTL_MS,
} from '@kol/shared-sdk/contracts';
import { badRequest, conflict, unprocessable } from '../../http/api-error';
import type { HeldKey } from '../../repositories/idempotency-keys';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract says `idempotent`: an `Idempotency-Key` header is honoured (below). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The key this call holds while it works, until its answer is stored or it is freed. */
    idempotency: HeldKey | null;
  }
}

/**
 * A running key whose call died with its process is taken over by a repeat after this: longer
 * than the SDK's 240 s timeout, so a slow call the browser still waits for is never run twice.
 */
export const IDEMPOTENCY_LOCK_MS = 5 * 60 * 1000;
/**
 * How long a repeat waits for the first call with its key, then answers 409: less than the
 * SDK's timeout, so the browser hears the reason rather than a timeout.
 */
export const IDEMPOTENCY_WAIT_MS = 120_000;
/** Expired keys are deleted at most this often per process, by the call that claims a key. */
const SWEEP_EVERY_MS = 60_000;

const KEY_PATTERN = new RegExp(`^[A-Za-z0-9_.:-]{1,${IDEMPOTENCY_KEY_MAX_CHARS}}$`);
const HEADER = IDEMPOTENCY_HEADER.toLowerCase();

export const IDEMPOTENCY_KEY_INVALID = `请求编号（${IDEMPOTENCY_HEADER} 请求头）不正确：应为 1 到 ${IDEMPOTENCY_KEY_MAX_CHARS} 个字母、数字或 -_.: 字符`;
export const IDEMPOTENCY_KEY_MISMATCH = `这个请求编号（${IDEMPOTENCY_HEADER}）已用于内容不同的另一次操作，本次未执行。请刷新页面后重新操作`;
export const IDEMPOTENCY_STILL_RUNNING =
  '同样的操作还在处理中，请稍后刷新页面查看结果，不要重复提交';

/** JSON with the keys of every object sorted: the same request hashes the same. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * What the call asked, as validated (coerced, defaults applied). A multipart upload's body is
 * read by its handler, after this: its key alone stands for it (the SDK derives an upload's key
 * from the file's name, size, type and date).
 */
function fingerprintOf(request: FastifyRequest): string {
  const asked = canonical({ query: request.query ?? null, body: request.body ?? null });
  return createHash('sha256').update(JSON.stringify(asked)).digest('hex');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Idempotent create calls: a route whose contract is `idempotent` and a call carrying an
 * `Idempotency-Key` are answered once per (user, route, key) for IDEMPOTENCY_KEY_TTL_MS.
 *
 * - The first call claims the key (a row of `idempotency_keys`), works, and stores its answer
 *   before it is sent; a failure frees the key, since nothing was made and a retry must work.
 * - A repeat gets the stored answer (header `Idempotent-Replayed: true`) without the handler
 *   running; one that arrives while the first works waits for it, then gets its answer.
 * - The same key with another query or body is refused (422) with a Chinese message.
 *
 * The keys are in the database, so this holds across API processes. A call without the header
 * is served as before (the ops CLI, scripts); the unique indexes still guard what they guard.
 */
export default fp(
  async (app) => {
    app.decorateRequest('idempotency', null);
    const keys = app.repos.idempotencyKeys;
    let lastSweep = 0;

    async function sweepNow(request: FastifyRequest) {
      const now = Date.now();
      if (now - lastSweep < SWEEP_EVERY_MS) return;
      lastSweep = now;
      try {
        await keys.sweep();
      } catch (error) {
        request.log.warn({ err: error }, 'sweeping expired idempotency keys failed');
      }
    }

    function replay(reply: FastifyReply, statusCode: number, response: string) {
      return reply
        .code(statusCode)
        .header('idempotent-replayed', 'true')
        .send(JSON.parse(response) as unknown);
    }

    // After validation (an invalid call claims nothing) and after onRequest's session check.
    app.addHook('preHandler', async (request, reply) => {
      if (!request.routeOptions.config.idempotent) return;
      const header = request.headers[HEADER];
      if (header === undefined) return;
      const key = Array.isArray(header) ? header.join(',') : header;
      if (!KEY_PATTERN.test(key)) throw badRequest(IDEMPOTENCY_KEY_INVALID);
      // Idempotent routes are signed-in ones; without a user there is nobody to scope a key to.
      if (!request.user) return;
      const call = {
        userId: request.user.id,
        route: `${request.method} ${request.routeOptions.url ?? request.url}`,
        key,
        fingerprint: fingerprintOf(request),
      };
      const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
      let pause = 25;
      for (;;) {
        const claim = await keys.claim(call, {
          ttlMs: IDEMPOTENCY_KEY_TTL_MS,
          lockMs: IDEMPOTENCY_LOCK_MS,
        });
        switch (claim.kind) {
          case 'claimed':
            request.idempotency = claim.held;
            await sweepNow(request);
            return;
          case 'done':
            return replay(reply, claim.statusCode, claim.response);
          case 'mismatch':
            throw unprocessable(IDEMPOTENCY_KEY_MISMATCH);
          case 'running':
            if (Date.now() >= deadline) throw conflict(IDEMPOTENCY_STILL_RUNNING);
            await sleep(pause);
            pause = Math.min(pause * 2, 500);
        }
      }
    });

    // The answer is stored before it leaves: a repeat that sees the key done replays it, and a
    // repeat after this one's answer reached the browser never runs the handler again.
    app.addHook('preSerialization', async (request, reply, payload) => {
      const held = request.idempotency;
      if (!held || reply.statusCode < 200 || reply.statusCode >= 300) return payload;
      await keys.complete(held, reply.statusCode, JSON.stringify(payload));
      request.idempotency = null;
      return payload;
    });

    // Anything else (a refusal, an error): the key is freed for a retry.
    app.addHook('onResponse', async (request) => {
      const held = request.idempotency;
      if (!held) return;
      request.idempotency = null;
      try {
        await keys.release(held);
      } catch (error) {
        request.log.warn({ err: error }, 'freeing an idempotency key failed');
      }
    });
  },
  { name: 'idempotency', dependencies: ['repositories', 'auth'] },
);
