import { IDEMPOTENCY_REUSE_MS } from '../constants';

/**
 * The `Idempotency-Key` of the create calls (EndpointDef.idempotent), framework-free.
 *
 * A repeat of the same call (same method, path and input) gets the same key while the first is
 * in flight and for IDEMPOTENCY_REUSE_MS after it settled: a double click, a button clicked
 * again before the page re-rendered, two pages of one tab acting at once. The server answers
 * such a repeat with the first call's answer, so nothing is created twice. Another input, or
 * the same input later, is another action with a new key.
 */

interface Recent {
  key: string;
  /** Calls under this key still in flight. */
  inFlight: number;
  /** When the last of them settled (ms since epoch); 0 while one is in flight. */
  settledAt: number;
}

const recent = new Map<string, Recent>();

/** A random key: 128 bits in hex. getRandomValues, unlike randomUUID, works over plain http. */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  if (typeof globalThis.crypto?.getRandomValues === 'function') {
    globalThis.crypto.getRandomValues(bytes);
  } else {
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = Math.floor(Math.random() * 256);
  }
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A JSON-able picture of an input: objects with sorted keys, a file by what names it. */
function describe(value: unknown): unknown {
  if (typeof Blob !== 'undefined' && value instanceof Blob) {
    const file = value as Partial<File>;
    return {
      blob: value.size,
      type: value.type,
      ...(file.name !== undefined ? { name: file.name } : {}),
      ...(file.lastModified !== undefined ? { lastModified: file.lastModified } : {}),
    };
  }
  if (typeof FormData !== 'undefined' && value instanceof FormData) {
    return { form: Array.from(value.entries(), ([name, entry]) => [name, describe(entry)]) };
  }
  if (Array.isArray(value)) return value.map(describe);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, describe((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** cyrb53: a fast 53-bit string hash, plenty to tell apart the calls of a few seconds. */
function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/**
 * A page's key for one action with this input (`base` kept in its KOL_ session state): the same
 * input gives the same key across reloads, another input another key, so an edit made after a
 * failed try is a new action rather than a key refused for asking something else.
 */
export function idempotencyKeyFor(base: string, input: unknown): string {
  return `${base}.${hash(JSON.stringify(describe(input)))}`;
}

/** What identifies one action: the endpoint and a hash of its input. */
export function callFingerprint(method: string, path: string, input: unknown): string {
  return `${method} ${path} ${hash(JSON.stringify(describe(input)) ?? '')}`;
}

function forgetOld(now: number): void {
  for (const [id, entry] of recent) {
    if (entry.inFlight === 0 && now - entry.settledAt >= IDEMPOTENCY_REUSE_MS) recent.delete(id);
  }
}

/**
 * Runs `send` with the key of this call: `explicit` when the page keeps one for the action
 * (e.g. in its KOL_ session state, so a reload and a click again reuse it), else the key of the
 * same call in flight or settled within IDEMPOTENCY_REUSE_MS, else a new one.
 */
export async function withIdempotencyKey<T>(
  method: string,
  path: string,
  input: unknown,
  explicit: string | undefined,
  send: (key: string) => Promise<T>,
): Promise<T> {
  if (explicit) return send(explicit);
  const now = Date.now();
  forgetOld(now);
  const id = callFingerprint(method, path, input);
  let entry = recent.get(id);
  if (!entry) {
    entry = { key: newIdempotencyKey(), inFlight: 0, settledAt: 0 };
    recent.set(id, entry);
  }
  const held = entry;
  held.inFlight += 1;
  try {
    return await send(held.key);
  } finally {
    held.inFlight -= 1;
    if (held.inFlight === 0) held.settledAt = Date.now();
  }
}

/**
 * A cancel ends the action it cancels: the same call after it is a new action (a new task), not
 * a repeat of the cancelled one, so the keys of the calls that have settled are forgotten.
 */
export function forgetSettledKeys(): void {
  for (const [id, entry] of recent) if (entry.inFlight === 0) recent.delete(id);
}

/** Tests only: forgets every remembered key, as a new page would. */
export function forgetIdempotencyKeys(): void {
  recent.clear();
}
