import type { FastifyInstance } from 'fastify';
import { TEMPLATE_IDS } from '@kol/shared-sdk/contracts';
import { createUser, login, PC } from '../helpers/test-app';

export interface Client {
  cookie: string;
  headers: Record<string, string>;
  get(url: string): Promise<{ status: number; code: number; msg: string; data: unknown }>;
  post(
    url: string,
    payload: unknown,
  ): Promise<{ status: number; code: number; msg: string; data: unknown }>;
}

/**
 * A new creator, signed in, with the headers the SDK sends: every work template and functional
 * level 1 unless `fields` says otherwise (the video calls check both).
 */
export async function signedInClient(
  app: FastifyInstance,
  fields: { templateIds?: number[]; functionalLevel?: number } = {},
): Promise<Client> {
  const { username, password } = await createUser(app, {
    templateIds: fields.templateIds ?? [...TEMPLATE_IDS],
    functionalLevel: fields.functionalLevel ?? 1,
  });
  const cookie = await login(app, username, password);
  const headers = { ...PC, cookie: `kol_session=${cookie}` };
  const answer = (response: { statusCode: number; json: () => unknown }) => {
    const body = response.json() as { code: number; msg: string; data: unknown };
    return { status: response.statusCode, ...body };
  };
  return {
    cookie,
    headers,
    async get(url) {
      return answer(await app.inject({ method: 'GET', url, headers }));
    },
    async post(url, payload) {
      return answer(await app.inject({ method: 'POST', url, headers, payload: payload as object }));
    },
  };
}

export function multipart(fileName: string, bytes: Uint8Array, field = 'file') {
  const boundary = '----kolTestBoundary' + Math.random().toString(16).slice(2);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, Buffer.from(bytes), tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export async function upload(
  app: FastifyInstance,
  client: Client,
  fileName: string,
  bytes: Uint8Array,
) {
  const body = multipart(fileName, bytes);
  const response = await app.inject({
    method: 'POST',
    url: '/api/writing/upload_book',
    headers: { ...client.headers, 'content-type': body.contentType },
    payload: body.payload,
  });
  return {
    status: response.statusCode,
    ...(response.json() as { code: number; msg: string; data: unknown }),
  };
}
