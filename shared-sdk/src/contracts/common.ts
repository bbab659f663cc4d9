import {
  Type,
  type Static,
  type TInteger,
  type TNumber,
  type TSchema,
  type TString,
} from 'typebox';
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
  /**
   * Who may call it. Without it, only a signed-in user: the server answers 401 before it reads
   * or validates the input. 'public': anyone (the call may still use a session when there is
   * one). 'admin': the ops CLI, with the admin token.
   */
  access?: 'public' | 'admin';
  /**
   * A call that creates something (a work, a task, a spent count, a role, an upload): the SDK
   * sends it with an `Idempotency-Key` header, the same key for a repeat of the same call (a
   * double click), and the server answers a repeated key of the same user and route with the
   * first call's answer instead of creating again (server/src/plugins/app/idempotency.ts).
   */
  idempotent?: true;
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

/**
 * The range of a PostgreSQL `integer` (int4), the type of every id and stored number. A request
 * integer outside it (2^31, 2^53, or the Infinity a query's `1e400` is coerced to) would reach
 * the database and fail there, so every request integer is bounded by it at validation.
 */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

/** Any integer of a request: int4 unless narrower bounds are given. */
export const Int = (
  title: string,
  options: { minimum?: number; maximum?: number; default?: number } = {},
) => Type.Integer({ minimum: INT4_MIN, maximum: INT4_MAX, ...options, title });
/** A row id (an int4 identity column): 1 to 2^31 - 1. */
export const Id = (title: string) => Int(title, { minimum: 1 });
export const Count = (title: string) => Int(title, { minimum: 0 });
/**
 * The revision of an edited record a save was based on (the one its page loaded): the server
 * refuses the save (412) when the record has changed since, instead of applying it over newer
 * work.
 */
export const Revision = () => Int('修订号', { minimum: 1 });
/**
 * A fractional number of a request. Both bounds are required: an unbounded number would let
 * `1e400` (Infinity) through.
 */
export const Decimal = (title: string, minimum: number, maximum: number) =>
  Type.Number({ minimum, maximum, title });
/**
 * A request field that may be null: its type and 'null' in ONE type list, such as
 * `{ type: ['integer', 'null'] }`, never a union with Type.Null(). The server validates with
 * Fastify's Ajv, which coerces types and takes the first anyOf branch that passes: with the
 * integer first a null is read as 0, with null first a 0 is read as null. A type list is
 * coerced only when the value is none of its types.
 */
export const Nullable = <T extends TInteger | TNumber | TString>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });
export const Text = (title: string, options: { minLength?: number; maxLength?: number } = {}) =>
  Type.String({ title, maxLength: 10_000, ...options });
export const PageQuery = {
  pageIndex: Type.Optional(Int('页码', { minimum: 1, default: 1 })),
  pageSize: Type.Optional(Int('每页条数', { minimum: 1, maximum: 1000, default: 20 })),
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
