import { Type, type Static, type TSchema } from 'typebox';
import { PROJECT_TYPES, type ProjectType } from '../enums';

/**
 * Every call is declared once here, as data: method, path, the schemas of its query or body,
 * and the schema of the `data` its envelope carries. The server registers and validates its
 * routes from these objects; the browser imports them as types only.
 *
 * Field schemas carry a Chinese `title`, so a validation failure can name the field to the user.
 */
export interface EndpointDef {
  method: 'GET' | 'POST';
  path: `/api/${string}`;
  summary: string;
  query?: TSchema;
  body?: TSchema;
  response: TSchema;
}

export function endpoint<const E extends EndpointDef>(def: E): E {
  return def;
}

export type QueryOf<E extends EndpointDef> = E extends { query: infer S extends TSchema }
  ? Static<S>
  : undefined;
export type BodyOf<E extends EndpointDef> = E extends { body: infer S extends TSchema }
  ? Static<S>
  : undefined;
export type DataOf<E extends EndpointDef> = Static<E['response']>;

/** The envelope of every `/api` answer (ARCHITECTURE section 6). */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

export const Id = (title: string) => Type.Integer({ minimum: 1, title });
export const Text = (title: string, options: { minLength?: number; maxLength?: number } = {}) =>
  Type.String({ title, maxLength: 10_000, ...options });
export const Count = (title: string) => Type.Integer({ minimum: 0, title });
export const PageQuery = {
  pageIndex: Type.Optional(Type.Integer({ minimum: 1, default: 1, title: '页码' })),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, default: 20, title: '每页条数' }),
  ),
};
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ items: Type.Array(item), total: Type.Integer({ minimum: 0 }) });

/** Project or content type of spec section 3, as a request field. */
// An integer schema with the enum (so query strings are coerced like any integer), typed as the
// ProjectType union; a Union over a mapped array would have the static type `never`.
export const ProjectTypeField = Type.Unsafe<ProjectType>({
  type: 'integer',
  enum: PROJECT_TYPES,
  title: '视频类型',
});

/** Largest video a user may upload (reverse videos, background material). */
export const MAX_VIDEO_UPLOAD_BYTES = 200 * 1024 * 1024;
/** Largest audio file a user may upload (music, voice). */
export const MAX_AUDIO_UPLOAD_BYTES = 30 * 1024 * 1024;
/** Longest video or audio upload: a short-video tool has no use for more. */
export const MAX_MEDIA_UPLOAD_MS = 10 * 60 * 1000;

/** A call that answers only success. */
export const Empty = Type.Null();
/** A call that starts background work and answers the task to poll. */
export const TaskRef = Type.Object({ taskId: Type.String({ title: '任务编号' }) });
export type TaskRef = Static<typeof TaskRef>;

/** State of any background task, as the browser polls it. */
export const TaskState = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('succeeded'),
  Type.Literal('failed'),
  Type.Literal('cancelled'),
]);
export type TaskState = Static<typeof TaskState>;
