import { rm } from 'node:fs/promises';
import path from 'node:path';
import multipart, { type Multipart } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import {
  MAX_AUDIO_UPLOAD_BYTES,
  MAX_IMAGE_UPLOAD_BYTES,
  MAX_VIDEO_UPLOAD_BYTES,
  roleEndpoints,
} from '@kol/shared-sdk/contracts';
import { ApiError, badRequest } from '../../../http/api-error';
import { displayName, storeImage, UploadRefused } from '../../../uploads/images';
import { keepInStore } from '../../../uploads/keep';
import { MediaRefused, quotedName, storeMedia } from '../../../uploads/media';
import { defineRoute } from '../../define-route';
import { ErrorCode } from '@kol/shared-sdk/contracts';

const typeMessage = (fileName: string) =>
  `${quotedName(fileName)}格式不支持，请上传 JPEG、PNG 或 WebP 图片`;

/** A plain multipart field's value (a field sent as a file, or sent twice, is none). */
function fieldValue(field: Multipart | Multipart[] | undefined): string | undefined {
  return field && !Array.isArray(field) && field.type === 'field' ? String(field.value) : undefined;
}
const SIZE_MESSAGE = `图片不能超过 ${MAX_IMAGE_UPLOAD_BYTES / 1024 / 1024} MB`;

/**
 * Image uploads (avatars, role references), video and audio uploads (reverse videos, material,
 * music) and the list of one's images.
 */
export default async function fileRoutes(app: FastifyInstance) {
  // Registered here, not app-wide, so only these routes accept multipart bodies. The plugin's
  // file size limit is the images'; upload_media passes its own when it reads the file.
  await app.register(multipart, {
    limits: { fileSize: MAX_IMAGE_UPLOAD_BYTES, files: 1, fields: 10, parts: 20 },
    // The size check reads `truncated` itself, so it can answer in the user's words.
    throwFileSizeLimit: false,
  });

  defineRoute(app, roleEndpoints.uploadImage, async ({ request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (!request.isMultipart()) throw badRequest('请以 multipart/form-data 上传，字段名为 file');
    const file = await request.file();
    if (!file || file.fieldname !== 'file') throw badRequest('请选择要上传的图片（字段名 file）');
    try {
      // Checked in the uploads folder (a cache with an object store), then stored for every
      // process; recorded last, so a listed upload is always there.
      const dir = app.config.uploadsDir;
      const stored = await storeImage(file.file, dir, () => file.file.truncated);
      await keepInStore(app.stores.uploads, stored.name, path.join(dir, stored.name));
      const url = `/uploads/${stored.name}`;
      await app.uploads.record(user.id, url, displayName(file.filename, stored.extension));
      return { url };
    } catch (error) {
      if (error instanceof UploadRefused) {
        if (error.reason === 'size') throw new ApiError(ErrorCode.payloadTooLarge, SIZE_MESSAGE);
        throw badRequest(error.reason === 'type' ? typeMessage(file.filename) : error.message);
      }
      throw error;
    }
  });

  defineRoute(app, roleEndpoints.uploadMedia, async ({ request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (!request.isMultipart()) throw badRequest('请以 multipart/form-data 上传，字段名为 file');
    // Cut at the larger (video) limit; storeMedia applies the audio limit once it knows the kind.
    const file = await request.file({
      limits: { fileSize: Math.max(MAX_VIDEO_UPLOAD_BYTES, MAX_AUDIO_UPLOAD_BYTES) },
    });
    if (!file || file.fieldname !== 'file') {
      throw badRequest('请选择要上传的视频或音频（字段名 file）');
    }
    // The kind the uploading page takes (field `kind` before `file`): its refusals then name
    // only that kind's formats, and a background never leaves an audio upload behind.
    const accept = fieldValue(file.fields.kind);
    if (accept !== undefined && accept !== 'video' && accept !== 'audio') {
      throw badRequest('「kind」只能是 video 或 audio');
    }
    try {
      const dir = app.config.uploadsDir;
      const stored = await storeMedia(file.file, dir, () => file.file.truncated, {
        fileName: file.filename,
        ...(accept ? { accept } : {}),
      });
      const local = path.join(dir, stored.name);
      // The same file sent again (another page, another try) is the asset it already is:
      // 我的上传 lists it once, and the copy just written goes.
      let row = await app.uploads.findOwnedByContent(user.id, stored.kind, stored.sha256);
      if (row) {
        await rm(local, { force: true });
      } else {
        await keepInStore(app.stores.uploads, stored.name, local);
        const url = `/uploads/${stored.name}`;
        row = await app.uploads.recordMedia(user.id, {
          url,
          name: displayName(file.filename, stored.extension),
          kind: stored.kind,
          durationMs: stored.durationMs,
          sha256: stored.sha256,
        });
        // Two uploads of the same file at once: the other one was recorded first.
        if (row.url !== url) await app.stores.uploads.remove(stored.name);
      }
      return {
        url: row.url,
        assetId: row.assetId,
        kind: stored.kind,
        durationMs: row.durationMs ?? stored.durationMs,
        name: row.name,
      };
    } catch (error) {
      if (error instanceof MediaRefused) {
        throw error.status === 413
          ? new ApiError(ErrorCode.payloadTooLarge, error.message)
          : badRequest(error.message);
      }
      throw error;
    }
  });

  defineRoute(app, roleEndpoints.uploadedImgs, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.uploads.list(user.id, {
      pageIndex: query.pageIndex ?? 1,
      pageSize: query.pageSize ?? 20,
    });
  });
}
