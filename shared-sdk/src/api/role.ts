import type { roleEndpoints } from '../contracts/role';
import type { CallOptions } from '../http/client';
import { defineCall } from './define-call';

type E = typeof roleEndpoints;

export const getRoles = defineCall<E['getRoles']>('GET', '/api/role/get_roles');
export const deleteRole = defineCall<E['deleteRole']>('GET', '/api/role/delete');
export const addRole = defineCall<E['addRole']>('POST', '/api/role/add', 'idempotent');
export const updateRole = defineCall<E['updateRole']>('POST', '/api/role/update');
export const extractRoles = defineCall<E['extractRoles']>('POST', '/api/role/extract_roles');
export const regenerateRoleImage = defineCall<E['reGenImg']>(
  'POST',
  '/api/role/re_gen_img',
  'idempotent',
);
export const initRoleTask = defineCall<E['initTask']>('POST', '/api/role/init_task', 'idempotent');
export const getLibraryRoles = defineCall<E['libraryRoles']>('GET', '/api/library/roles');
export const addRoleToTask = defineCall<E['addRoleToTask']>(
  'POST',
  '/api/library/add_role_to_task',
  'idempotent',
);
export const getLoras = defineCall<E['getLoras']>('GET', '/api/lora/get_loras');
export const getVersionList = defineCall<E['versionList']>('GET', '/api/version/version_list');
const uploadImageCall = defineCall<E['uploadImage']>(
  'POST',
  '/api/file/upload_image',
  'idempotent',
);
const uploadMediaCall = defineCall<E['uploadMedia']>(
  'POST',
  '/api/file/upload_media',
  'idempotent',
);

/** Sends one file as multipart field `file` through a call declared with a JSON body. */
function sendFile<R>(
  call: (body: never, o?: CallOptions) => R,
  file: Blob,
  fileName: string,
  options?: CallOptions,
  fields: Record<string, string> = {},
): R {
  const form = new FormData();
  // Fields first: the server reads them with the file, which must come last.
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', file, fileName);
  // The body is a FormData, which the contract (multipart) does not model as JSON.
  return (call as unknown as (body: FormData, o?: CallOptions) => R)(form, options);
}

/** Uploads one image as multipart field `file`; answers where it is served. */
export function uploadImage(file: Blob, fileName: string, options?: CallOptions) {
  return sendFile(uploadImageCall, file, fileName, options);
}

/**
 * Uploads one video or audio file; answers where it is served, its asset id, kind and length.
 * `kind`: the one kind the page takes (a background, a scene, a source clip: video), so the
 * server refuses the other kind and lists only that kind's formats, naming the file.
 */
export function uploadMedia(
  file: Blob,
  fileName: string,
  options?: CallOptions & { kind?: 'video' | 'audio' },
) {
  const { kind, ...call } = options ?? {};
  return sendFile(uploadMediaCall, file, fileName, call, kind ? { kind } : {});
}

export const getUploadedImages = defineCall<E['uploadedImgs']>('GET', '/api/file/uploaded_imgs');
