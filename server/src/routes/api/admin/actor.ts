import type { FastifyRequest } from 'fastify';

/** Who did it, for the audit log: the token, plus the name the CLI sends (its --actor or OS user). */
export function actorOf(request: FastifyRequest): string {
  const raw = request.headers['x-kol-actor'];
  if (typeof raw !== 'string') return 'admin token';
  let name: string;
  try {
    // Percent-encoded by the CLI, because header values cannot carry non-ASCII names.
    name = decodeURIComponent(raw).trim();
  } catch {
    name = raw.trim();
  }
  return name ? `admin token (${name.slice(0, 64)})` : 'admin token';
}
