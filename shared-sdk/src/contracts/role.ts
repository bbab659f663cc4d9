import { Type, type Static } from 'typebox';
import {
  Empty,
  Id,
  Int,
  Page,
  PageQuery,
  Revision,
  TaskRef,
  Text,
  ProjectTypeField,
  endpoint,
} from './common';

/**
 * A role's gender: inferred from the story when the role is extracted, editable on its card;
 * its speakers get a voice of that gender by default. Null: not known (未知).
 */
export const RoleGender = Type.Union([Type.Literal('female'), Type.Literal('male'), Type.Null()], {
  title: '性别',
});
export type RoleGender = Static<typeof RoleGender>;
/**
 * RoleGender as a request field: a type list with null, as Nullable declares (a union with
 * null would read a coerced value the wrong way, see common.ts).
 */
const RoleGenderField = Type.Unsafe<RoleGender>({
  type: ['string', 'null'],
  enum: ['female', 'male', null],
  title: '性别',
});

/** A role keeps a fixed description, reference image and seed, used in every prompt of it. */
export const Role = Type.Object({
  roleId: Type.Integer(),
  taskId: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  description: Type.String(),
  referenceImageUrl: Type.String(),
  imageUrls: Type.Array(Type.String()),
  seed: Type.Integer(),
  loraId: Type.Union([Type.Integer(), Type.Null()]),
  /**
   * What the role is for: its task's project type, or, for a role of the library (no task),
   * the kind the user gave it (one of ROLE_LIBRARY_TYPES); null for a library role without one.
   */
  type: Type.Union([Type.Integer(), Type.Null()]),
  gender: RoleGender,
  /** One more on every change (an edit, a picture drawn): update names the one it was based on. */
  revision: Type.Integer({ minimum: 1 }),
});
export type Role = Static<typeof Role>;

/** The kinds of a library role: comic (0), overseas comic (5), anime short (11). */
export const ROLE_LIBRARY_TYPES = [0, 5, 11] as const;
const RoleLibraryType = Type.Union([Type.Literal(0), Type.Literal(5), Type.Literal(11)], {
  title: '角色类型',
});

/** Answer of extract_roles: the roles found (new or already in the task) and who found them. */
export const ExtractedRoles = Type.Object({
  roles: Type.Array(Role),
  /** The chat model, or the local heuristic (saying why when the model failed). */
  engine: Type.String(),
});
export type ExtractedRoles = Static<typeof ExtractedRoles>;

export const RoleInput = Type.Object({
  taskId: Type.Optional(Text('任务编号', { maxLength: 64 })),
  name: Text('角色名', { minLength: 1, maxLength: 32 }),
  description: Text('角色描述', { maxLength: 1000 }),
  referenceImageUrl: Type.Optional(Text('参考图', { maxLength: 500 })),
  loraId: Type.Optional(Int('画风模型')),
  /** A library role's kind; a role of a task takes its task's type and ignores this. */
  type: Type.Optional(RoleLibraryType),
  /** Absent: inferred from the description (see the server's text/gender.ts). */
  gender: Type.Optional(RoleGenderField),
});
export type RoleInput = Static<typeof RoleInput>;

export const RoleUpdate = Type.Object({
  roleId: Id('角色'),
  revision: Revision(),
  name: Type.Optional(Text('角色名', { minLength: 1, maxLength: 32 })),
  description: Type.Optional(Text('角色描述', { maxLength: 1000 })),
  referenceImageUrl: Type.Optional(Text('参考图', { maxLength: 500 })),
  loraId: Type.Optional(Int('画风模型')),
  type: Type.Optional(RoleLibraryType),
  /** Null sets it to 未知. */
  gender: Type.Optional(RoleGenderField),
});
export type RoleUpdate = Static<typeof RoleUpdate>;

export const Lora = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  coverUrl: Type.String(),
  description: Type.String(),
});
export type Lora = Static<typeof Lora>;

export const ModelVersion = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
});
export type ModelVersion = Static<typeof ModelVersion>;

export const UploadedImage = Type.Object({
  url: Type.String(),
  name: Type.String(),
  createTime: Type.String(),
});
export type UploadedImage = Static<typeof UploadedImage>;

/** Answer of an upload: where the stored file is served. */
export const UploadedFile = Type.Object({ url: Type.String() });
export type UploadedFile = Static<typeof UploadedFile>;

export const MediaKind = Type.Union([Type.Literal('video'), Type.Literal('audio')]);
export type MediaKind = Static<typeof MediaKind>;

/** Answer of a video or audio upload: the stored file, its asset id and its probed length. */
export const UploadedMedia = Type.Object({
  url: Type.String(),
  assetId: Type.Integer(),
  kind: MediaKind,
  durationMs: Type.Integer({ minimum: 0 }),
  name: Type.String(),
});
export type UploadedMedia = Static<typeof UploadedMedia>;

export const roleEndpoints = {
  getRoles: endpoint({
    method: 'GET',
    path: '/api/role/get_roles',
    summary: '任务的角色',
    query: Type.Object({ taskId: Text('任务编号', { minLength: 1, maxLength: 64 }) }),
    response: Type.Array(Role),
  }),
  deleteRole: endpoint({
    method: 'GET',
    path: '/api/role/delete',
    summary: '删除角色',
    query: Type.Object({ roleId: Id('角色') }),
    response: Empty,
  }),
  addRole: endpoint({
    method: 'POST',
    path: '/api/role/add',
    summary: '新增角色',
    idempotent: true,
    body: RoleInput,
    response: Role,
  }),
  updateRole: endpoint({
    method: 'POST',
    path: '/api/role/update',
    summary: '修改角色',
    body: RoleUpdate,
    response: Role,
  }),
  extractRoles: endpoint({
    method: 'POST',
    path: '/api/role/extract_roles',
    summary: '从文本中提取角色',
    body: Type.Object({
      taskId: Text('任务编号', { minLength: 1, maxLength: 64 }),
      text: Text('原文', { minLength: 1, maxLength: 100_000 }),
    }),
    response: ExtractedRoles,
  }),
  reGenImg: endpoint({
    method: 'POST',
    path: '/api/role/re_gen_img',
    summary: '重新生成角色形象',
    idempotent: true,
    body: Type.Object({
      roleId: Id('角色'),
      prompt: Type.Optional(Text('画面描述', { maxLength: 2000 })),
    }),
    response: TaskRef,
  }),
  initTask: endpoint({
    method: 'POST',
    path: '/api/role/init_task',
    summary: '创建角色任务',
    idempotent: true,
    body: Type.Object({
      type: ProjectTypeField,
      workId: Type.Optional(Id('作品')),
    }),
    response: TaskRef,
  }),
  /**
   * Not a spec call: the caller's role library (the roles made in My roles, which belong to no
   * task), newest first, by kind and name. get_roles lists a task's roles; this lists the rest.
   */
  libraryRoles: endpoint({
    method: 'GET',
    path: '/api/library/roles',
    summary: '我的角色库',
    query: Type.Object({
      type: Type.Optional(RoleLibraryType),
      keyword: Type.Optional(Text('关键词', { maxLength: 32 })),
      ...PageQuery,
    }),
    response: Page(Role),
  }),
  addRoleToTask: endpoint({
    method: 'POST',
    path: '/api/library/add_role_to_task',
    summary: '从角色库加入任务',
    idempotent: true,
    body: Type.Object({
      roleId: Id('角色'),
      taskId: Text('任务编号', { minLength: 1, maxLength: 64 }),
    }),
    response: Role,
  }),
  getLoras: endpoint({
    method: 'GET',
    path: '/api/lora/get_loras',
    summary: '画风模型',
    response: Type.Array(Lora),
  }),
  versionList: endpoint({
    method: 'GET',
    path: '/api/version/version_list',
    summary: '生成模型版本',
    response: Type.Array(ModelVersion),
  }),
  uploadImage: endpoint({
    method: 'POST',
    path: '/api/file/upload_image',
    summary: '上传图片（multipart，字段 file；JPEG、PNG、WebP，至多 5 MB）',
    idempotent: true,
    response: UploadedFile,
  }),
  uploadMedia: endpoint({
    method: 'POST',
    path: '/api/file/upload_media',
    summary:
      '上传视频或音频（multipart，字段 file；视频 MP4、MOV、WebM、MKV 至多 200 MB，音频 MP3、M4A、WAV、OGG 至多 30 MB，时长至多 10 分钟；file 之前的字段 kind=video 或 audio：页面只收这一种）',
    idempotent: true,
    response: UploadedMedia,
  }),
  uploadedImgs: endpoint({
    method: 'GET',
    path: '/api/file/uploaded_imgs',
    summary: '已上传的图片',
    query: Type.Object({ ...PageQuery }),
    response: Page(UploadedImage),
  }),
};
