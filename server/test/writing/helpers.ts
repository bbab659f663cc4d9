import type { FastifyInstance } from 'fastify';
import { TEMPLATE_IDS } from '@kol/shared-sdk/contracts';
import { createUser, login, PC } from '../helpers/test-app';

export interface Client {
  username: string;
  cookie: string;
  headers: Record<string, string>;
  get(url: string): Promise<{ status: number; code: number; msg: string; data: unknown }>;
  post(
    url: string,
    payload: unknown,
  ): Promise<{ status: number; code: number; msg: string; data: unknown }>;
  /**
   * A save as a page makes it right after loading the record: `post` with the record's current
   * revision (work_info, get_cut_video, dedup_presets; 1 when the caller cannot read it, so a
   * foreign record is refused as not found, not as stale).
   */
  edit(
    url: string,
    payload: Record<string, unknown>,
  ): Promise<{ status: number; code: number; msg: string; data: unknown }>;
}

/** Where the revision of the record an edit call saves is read. */
function revisionSource(url: string, payload: Record<string, unknown>): string {
  const workId = String(payload.workId);
  if (url === '/api/cut_video/update_cut_video_data')
    return `/api/cut_video/get_cut_video?workId=${workId}`;
  if (url === '/api/video/save_dedup_presets') return '/api/video/dedup_presets';
  if (
    ['/api/video/update_text', '/api/video/save_video_info', '/api/video/save_text'].includes(url)
  )
    return `/api/video/work_info?workId=${workId}`;
  throw new Error(`no revision source for ${url}`);
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
  const get: Client['get'] = async (url) =>
    answer(await app.inject({ method: 'GET', url, headers }));
  const post: Client['post'] = async (url, payload) =>
    answer(await app.inject({ method: 'POST', url, headers, payload: payload as object }));
  return {
    username,
    cookie,
    headers,
    get,
    post,
    async edit(url, payload) {
      const current = await get(revisionSource(url, payload));
      const revision = (current.data as { revision?: number } | null)?.revision ?? 1;
      return post(url, { ...payload, revision });
    },
  };
}

export function multipart(
  fileName: string,
  bytes: Uint8Array,
  field = 'file',
  /** Plain fields sent before the file, as the SDK sends them. */
  fields: Record<string, string> = {},
) {
  const boundary = '----kolTestBoundary' + Math.random().toString(16).slice(2);
  const before = Object.entries(fields)
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('');
  const head = Buffer.from(
    before +
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
