import type { FastifyInstance } from 'fastify';

export interface HealthFigures {
  /** Longest wait, in ms, from the moment a poll was due to its answer. */
  worstMs: number;
  polls: number;
  /** Polls that did not answer 200. */
  failures: number;
}

/**
 * Asks `GET /healthz` every `everyMs` while something else runs in the same process, and
 * measures each answer from the moment the poll was due, not from when its timer actually
 * fired: a blocked event loop delays the timer itself, and that delay is what a user sees.
 * Call the answer to stop and get the figures.
 */
export function watchHealth(app: FastifyInstance, everyMs = 20): () => Promise<HealthFigures> {
  let stopped = false;
  const figures: HealthFigures = { worstMs: 0, polls: 0, failures: 0 };
  const loop = (async () => {
    while (!stopped) {
      const due = performance.now() + everyMs;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      const response = await app.inject({ method: 'GET', url: '/healthz' });
      figures.worstMs = Math.max(figures.worstMs, performance.now() - due);
      figures.polls += 1;
      if (response.statusCode !== 200) figures.failures += 1;
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return { ...figures, worstMs: Math.round(figures.worstMs) };
  };
}
