import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import {
  adminEndpoints,
  CANARY_PERCENT,
  ErrorCode,
  MAX_RELEASE_BYTES,
  MAX_RELEASE_FILES,
  type RemoteChange,
} from '@kol/shared-sdk/contracts';
import { ApiError, badRequest, conflict, notFound } from '../../../http/api-error';
import { ReleaseRefused } from '../../../releases/build';
import { PointerMoveRefused, type PointerChange } from '../../../repositories/releases';
import { defineRoute, type RouteOptions } from '../../define-route';
import { actorOf } from './actor';

const ADMIN: RouteOptions = { security: ['adminToken'], stateChanging: false };
const MAX_NOTE = 500;
const MAX_PATH = 512;
const MB = 1024 * 1024;

const FILES_MESSAGE = `发布被拒绝（文件检查）：构建目录最多 ${MAX_RELEASE_FILES} 个文件`;
const SIZE_MESSAGE = `发布被拒绝（文件检查）：构建目录总大小不能超过 ${MAX_RELEASE_BYTES / MB} MB`;

/**
 * The relative path an uploaded part names, checked before anything is written: no absolute
 * path, drive letter, backslash, empty / `.` / `..` segment, dotfile or control character, so
 * a file can only land inside the upload's temporary folder (and dotfiles, which a build's
 * listing leaves out anyway, are refused rather than silently dropped).
 */
export function uploadPath(name: string): string[] {
  const segments = name.split('/');
  const bad =
    name === '' ||
    name.length > MAX_PATH ||
    name.includes('\\') ||
    [...name].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f) ||
    /^[A-Za-z]:/.test(name) ||
    segments.some((segment) => segment === '' || segment.startsWith('.'));
  if (bad) {
    throw badRequest(
      `发布被拒绝（文件检查）：上传的文件名 “${name.slice(0, 100)}” 不合法` +
        '（应为构建目录内的相对路径，不能是绝对路径，不能含 ..、反斜杠或以 . 开头的部分）',
    );
  }
  return segments;
}

function fromMultipartError(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
    return new ApiError(ErrorCode.payloadTooLarge, FILES_MESSAGE);
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new ApiError(ErrorCode.payloadTooLarge, SIZE_MESSAGE);
  if (code === 'FST_FIELDS_LIMIT') return badRequest('发布请求的字段过多（只需 remote 和 note）');
  return error;
}

function toRemoteChange(change: PointerChange, lastKnownGood: string | null): RemoteChange {
  return { ...change, lastKnownGood };
}

/** The upload's `canary` field: absent or empty for a release to everyone. */
function canaryPercent(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < CANARY_PERCENT.min || value > CANARY_PERCENT.max) {
    throw badRequest(
      `灰度比例（canary）应为 ${CANARY_PERCENT.min} 到 ${CANARY_PERCENT.max} 的整数，收到 “${raw.slice(0, 20)}”`,
    );
  }
  return value;
}

/** A refused pointer move as an HTTP error: an unknown remote or version 404, the rest 409. */
function moveRefusal(error: PointerMoveRefused): ApiError {
  return error.reason === 'unknown-remote' || error.reason === 'unknown-version'
    ? notFound(error.message)
    : conflict(error.message);
}

/**
 * Release operations of the admin API (mounted inside admin/index.ts, so behind its token
 * check): upload-and-release a build (to everyone or as a canary), list versions, roll back,
 * promote, list load failures and the server's own rollbacks.
 * Every pointer move is recorded by the ReleaseService (activation history and audit log).
 */
export default async function remoteAdminRoutes(app: FastifyInstance) {
  // Here rather than app-wide: only the release upload takes multipart bodies, with its limits.
  await app.register(multipart, {
    // Keep the directories in part file names: busboy cuts them down to the base name otherwise.
    preservePath: true,
    limits: {
      // One byte over the total: the running total below refuses first, in words ops can read.
      fileSize: MAX_RELEASE_BYTES + 1,
      files: MAX_RELEASE_FILES,
      fields: 10,
      parts: MAX_RELEASE_FILES + 10,
    },
  });

  defineRoute(
    app,
    adminEndpoints.releaseRemote,
    async ({ request }) => {
      if (!request.isMultipart()) {
        throw badRequest(
          '请以 multipart/form-data 上传构建目录：字段 remote、note，每个文件一段（文件名为相对路径）',
        );
      }
      // Named by process, so one process's leftovers (there should be none) are told apart.
      const dir = await mkdtemp(path.join(os.tmpdir(), `kol-release-upload-${process.pid}-`));
      try {
        const fields: { remote?: string; note?: string; canary?: string } = {};
        const seen = new Set<string>();
        let total = 0;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'field') {
              if (
                part.fieldname === 'remote' ||
                part.fieldname === 'note' ||
                part.fieldname === 'canary'
              )
                fields[part.fieldname] = String(part.value);
              continue;
            }
            const segments = uploadPath(part.filename);
            const relative = segments.join('/');
            if (seen.has(relative))
              throw badRequest(`发布被拒绝（文件检查）：文件 ${relative} 上传了两次`);
            seen.add(relative);
            const target = path.join(dir, ...segments);
            try {
              await mkdir(path.dirname(target), { recursive: true });
            } catch {
              throw badRequest(`发布被拒绝（文件检查）：${relative} 与另一个文件的路径冲突`);
            }
            const counter = new Transform({
              transform(chunk: Buffer, _encoding, callback) {
                total += chunk.length;
                if (total > MAX_RELEASE_BYTES)
                  callback(new ApiError(ErrorCode.payloadTooLarge, SIZE_MESSAGE));
                else callback(null, chunk);
              },
            });
            // `wx`: a path that is also a folder of another file fails instead of mixing them.
            await pipeline(part.file, counter, createWriteStream(target, { flags: 'wx' })).catch(
              (error: unknown) => {
                if (error instanceof ApiError) throw error;
                const code = (error as { code?: unknown }).code;
                if (code === 'EEXIST' || code === 'EISDIR' || code === 'ENOTDIR')
                  throw badRequest(`发布被拒绝（文件检查）：${relative} 与另一个文件的路径冲突`);
                throw error;
              },
            );
          }
        } catch (error) {
          throw fromMultipartError(error);
        }
        const remote = fields.remote?.trim() ?? '';
        if (!remote) throw badRequest('缺少字段 remote（远程模块名，如 mfe_user）');
        const note = fields.note ?? '';
        if (note.length > MAX_NOTE) throw badRequest(`「备注」最多 ${MAX_NOTE} 个字符`);
        const percent = canaryPercent(fields.canary);
        const actor = actorOf(request);
        try {
          const result = await app.releases.publishDir(remote, dir, {
            createdBy: actor,
            note,
            refuseExisting: true,
            ...(percent === undefined ? {} : { canaryPercent: percent }),
          });
          return {
            remote,
            action: result.canary ? ('canary' as const) : ('release' as const),
            from: result.previous,
            to: result.version,
            note,
            lastKnownGood: await app.releases.lastKnownGood(remote),
            canary: result.canary,
            endedCanary: result.endedCanary,
          };
        } catch (error) {
          if (error instanceof ReleaseRefused) {
            throw error.check === 'duplicate' ? conflict(error.message) : badRequest(error.message);
          }
          if (error instanceof PointerMoveRefused) throw moveRefusal(error);
          throw error;
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    ADMIN,
  );

  defineRoute(
    app,
    adminEndpoints.listRemotes,
    async ({ query }) => {
      const items = await app.releases.versions(query.remote ?? null);
      if (query.remote && items.length === 0)
        throw notFound(`远程模块 ${query.remote} 还没有发布过任何版本`);
      return { items };
    },
    ADMIN,
  );

  async function moved(remote: string, move: () => Promise<PointerChange>): Promise<RemoteChange> {
    try {
      const change = await move();
      return toRemoteChange(change, await app.releases.lastKnownGood(remote));
    } catch (error) {
      if (error instanceof PointerMoveRefused) throw moveRefusal(error);
      throw error;
    }
  }

  defineRoute(
    app,
    adminEndpoints.rollbackRemote,
    async ({ body, request }) =>
      moved(body.remote, () =>
        app.releases.rollback(body.remote, body.to ?? null, {
          actor: actorOf(request),
          note: body.note ?? '',
        }),
      ),
    ADMIN,
  );

  defineRoute(
    app,
    adminEndpoints.promoteRemote,
    async ({ body, request }) =>
      moved(body.remote, () =>
        app.releases.promote(body.remote, body.version, {
          actor: actorOf(request),
          note: body.note ?? '',
        }),
      ),
    ADMIN,
  );

  defineRoute(
    app,
    adminEndpoints.listRemoteFailures,
    async ({ query }) => ({
      items: await app.releases.listFailures(query.remote ?? null, query.limit ?? 100),
      autoRollbacks: await app.releases.listAutoRollbacks(query.remote ?? null, query.limit ?? 100),
    }),
    ADMIN,
  );
}
