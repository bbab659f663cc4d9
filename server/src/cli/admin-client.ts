import os from 'node:os';
import type { EndpointDef } from '@kol/shared-sdk/contracts';
import { adminTokenPath, readAdminToken } from '../admin-token';
import type { CliEnv } from '../env';
import type { Values } from './args';
import { CliError, type CliIo } from './command';

/**
 * Calls one admin endpoint and answers the envelope's data; under --json it prints that data
 * first. GET sends the payload as the query, POST as JSON, or the form when one is given.
 */
export type AdminCall = (
  def: EndpointDef,
  payload?: Record<string, unknown>,
  form?: FormData,
) => Promise<unknown>;

async function adminToken(env: CliEnv): Promise<string> {
  if (env.adminToken) return env.adminToken;
  try {
    return await readAdminToken(env.dataDir);
  } catch {
    throw new CliError(
      `No admin token: set KOL_ADMIN_TOKEN or start the server once so that it writes ${adminTokenPath(env.dataDir)}`,
    );
  }
}

interface Target {
  server: string;
  actor: string;
  token: string;
}

async function send(
  { server, actor, token }: Target,
  def: EndpointDef,
  payload: Record<string, unknown> | undefined,
  form: FormData | undefined,
): Promise<Response> {
  const query =
    def.method === 'GET' && payload
      ? `?${new URLSearchParams(payload as Record<string, string>)}`
      : '';
  try {
    return await fetch(`${server}${def.path}${query}`, {
      method: def.method,
      headers: {
        authorization: `Bearer ${token}`,
        'x-kol-actor': encodeURIComponent(actor),
        // A form sets its own multipart content type, boundary included.
        ...(def.method === 'POST' && !form ? { 'content-type': 'application/json' } : {}),
      },
      body: form ?? (def.method === 'POST' ? JSON.stringify(payload ?? {}) : undefined),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
    throw new CliError(
      `Cannot reach the server at ${server} (${cause}). Is it running? Use --server to point elsewhere.`,
    );
  }
}

/** The data of a KOL envelope `{ code: 0, data }`; any other answer is the failure to report. */
async function envelopeData(server: string, response: Response): Promise<unknown> {
  let envelope: { code?: unknown; msg?: unknown; data?: unknown };
  try {
    envelope = (await response.json()) as typeof envelope;
  } catch {
    throw new CliError(
      `${server} answered HTTP ${response.status} without a KOL envelope: is it the KOL server?`,
    );
  }
  if (envelope.code !== 0)
    throw new CliError(`Failed (${String(envelope.code)}): ${String(envelope.msg)}`);
  return envelope.data;
}

/** The call for this command line: its --server (or the default), its --actor (or the OS user). */
export function adminCaller(values: Values, io: CliIo): AdminCall {
  const server = (values.server ?? io.env.defaultServer).replace(/\/+$/, '');
  // `||`: an unset USER reads as '', and the audit log should still name someone.
  const actor = values.actor ?? (io.env.osUser || os.userInfo().username);
  return async (def, payload, form) => {
    const token = await adminToken(io.env);
    const data = await envelopeData(
      server,
      await send({ server, actor, token }, def, payload, form),
    );
    if (values.json) io.out(JSON.stringify(data, null, 2));
    return data;
  };
}
