import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULTS, type AppConfig, type ProviderLimits } from '../config';
import { ProviderError } from '../providers/errors';
import type { Providers } from '../providers';
import type { ProviderSlotsRepository } from '../repositories/provider-slots';

const MAX_BACKOFF_MS = 30_000;

/** Waits `ms`; a cancel ends the wait with the cancel's own reason (as the calls do). */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch (error) {
    throw signal.aborted ? (signal.reason ?? error) : error;
  }
}

/** One slot held: give it back when the call ends. */
export type SlotRelease = () => Promise<void>;

/**
 * Calls to outside services limited by the slots of the database (repositories/provider-slots):
 * a call waits for a free slot of its provider, holds it while it runs, and gives it back
 * however it ends. `holder` names this process (a process that dies leaves its slots to expire).
 */
export function createProviderSlots(
  repo: ProviderSlotsRepository,
  options: { waitMs?: number } = {},
) {
  const holder = randomUUID();
  const waitMs = options.waitMs ?? 250;

  /** Waits for a slot of `provider` (at most `limit` held at once); a cancel stops the wait. */
  async function acquire(
    provider: string,
    limit: number,
    leaseMs: number,
    signal: AbortSignal,
  ): Promise<SlotRelease> {
    for (;;) {
      signal.throwIfAborted();
      const slot = await repo.take(provider, limit, holder, leaseMs);
      if (slot !== null) return () => repo.release(provider, slot, holder);
      await pause(waitMs, signal);
    }
  }

  /** Runs `call` holding a slot, given back however it ends. */
  async function run<T>(
    provider: string,
    limit: number,
    leaseMs: number,
    signal: AbortSignal,
    call: () => Promise<T>,
  ): Promise<T> {
    const release = await acquire(provider, limit, leaseMs, signal);
    try {
      return await call();
    } finally {
      await release().catch(() => undefined);
    }
  }

  return { acquire, run, holder };
}

export type ProviderSlots = ReturnType<typeof createProviderSlots>;

/** Whether a failure is worth another try: the service was busy or broke, not the request. */
const retryable = (error: unknown): error is ProviderError =>
  error instanceof ProviderError && (error.failure === 'rateLimited' || error.failure === 'server');

/**
 * The providers with their calls limited across processes (`slots`) and, for pictures, a busy
 * or broken answer tried again after the service's `retry-after` or a backoff. `leaseMs` of a
 * kind is how long a slot is held at most (the provider's time limit and a margin): past it, a
 * process that died no longer holds it.
 */
export function limitedProviders(
  providers: Providers,
  slots: ProviderSlots,
  limits: ProviderLimits,
  lease: { imagesMs: number; videosMs: number },
): Providers {
  const { images, videos } = providers;
  const backoffMs = limits.backoffMs ?? 1_000;
  return {
    ...providers,
    images: images && {
      ...images,
      async draw(request, signal) {
        const key = `images:${images.label}`;
        for (let attempt = 0; ; attempt += 1) {
          try {
            return await slots.run(key, limits.images.concurrency, lease.imagesMs, signal, () =>
              images.draw(request, signal),
            );
          } catch (error) {
            if (signal.aborted || !retryable(error) || attempt >= limits.images.retries)
              throw error;
            const wait = error.retryAfterMs ?? Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** attempt);
            // The slot is given back while waiting: another call may use the service meanwhile.
            await pause(Math.min(MAX_BACKOFF_MS, wait), signal);
          }
        }
      },
    },
    videos: videos && {
      ...videos,
      animate: (request, signal) =>
        slots.run(`videos:${videos.label}`, limits.videos.concurrency, lease.videosMs, signal, () =>
          videos.animate(request, signal),
        ),
    },
  };
}

/** A slot outlives the provider's own time limit by this much before another may take it. */
const LEASE_MARGIN_MS = 60_000;

/**
 * The providers of a process limited by the installation's settings (`providerLimits`,
 * IMAGE_CONCURRENCY, IMAGE_RETRIES, VIDEO_CONCURRENCY), the slots in the database: what every
 * pipeline of the API and worker processes calls (video/pipelines/index.ts).
 */
export function providersWithLimits(
  config: Pick<AppConfig, 'providerLimits' | 'images' | 'videos'>,
  repo: ProviderSlotsRepository,
  providers: Providers,
): Providers {
  const limits = config.providerLimits ?? DEFAULTS.providerLimits;
  return limitedProviders(
    providers,
    createProviderSlots(repo, limits.waitMs !== undefined ? { waitMs: limits.waitMs } : {}),
    limits,
    {
      imagesMs: (config.images?.timeoutMs ?? 120_000) + LEASE_MARGIN_MS,
      videosMs: (config.videos?.timeoutMs ?? 600_000) + LEASE_MARGIN_MS,
    },
  );
}
