import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  ADMIN_TOKEN,
  PC,
  createTestApp,
  createUser,
  login,
  sessionCookie,
} from '../helpers/test-app';

/**
 * Malformed input of every kind a client (or a fuzzer) can send, to every operation of the
 * OpenAPI document, read from the app itself: a route added later is covered without touching
 * this file. Nothing may answer 5xx; every refusal is a Chinese message; a call that needs a
 * session is refused with 401 before its input is looked at; and a value outside its schema is
 * refused at validation, with the field named.
 */

/** The JSON Schema keywords the generator reads (OpenAPI 3 schemas as @fastify/swagger writes them). */
interface Schema {
  type?: string | string[];
  title?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  additionalProperties?: boolean | Schema;
  patternProperties?: Record<string, Schema>;
}

interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  security?: Array<Record<string, unknown>>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

interface Operation {
  method: 'GET' | 'POST';
  path: string;
  /** The query as one object schema (OpenAPI spreads it into parameters). */
  query: Schema | null;
  body: Schema | null;
  session: boolean;
  admin: boolean;
}

type Mode = 'anonymous' | 'session' | 'admin';

interface Case {
  name: string;
  /** Query string without the `?`. */
  query?: string;
  payload?: string | Buffer;
  contentType?: string;
  /** Input the route must refuse: the answer (to a caller allowed in) must be 400. */
  invalid: boolean;
  /** The field the refusal must name, for input of one field. */
  label?: string;
}

/** What every number field gets: past int4, past 2^53, negative, infinite, not a number. */
const BAD_NUMBERS = ['2147483648', '9007199254740992', '-1', '1e400', 'abc'] as const;
/** The same in a JSON body, where a number may also come as a string or a one-item list. */
const BAD_JSON_NUMBERS = [
  '2147483648',
  '9007199254740992',
  '-1',
  '1e400',
  '"1e400"',
  '["1e400"]',
  '"abc"',
] as const;
const NUL_TEXT = 'a\u0000b';
/**
 * A lone UTF-16 surrogate, which jsonb refuses. Only in JSON bodies: a query string cannot carry
 * one (percent-decoding invalid UTF-8 gives U+FFFD).
 */
const LONE_SURROGATE_TEXT = 'a\ud800b';
const BAD_JSON_TEXTS = [
  ['NUL', NUL_TEXT],
  ['a lone surrogate', LONE_SURROGATE_TEXT],
] as const;
const CHINESE = /[\u4e00-\u9fff]/;
/** Stands for a raw JSON token (1e400 has no JSON.stringify form). */
const RAW = '\u0001raw\u0001';

let app: FastifyInstance;
let doc: OpenApiDocument;
let user: { username: string; password: string };
let cookie: string;

beforeAll(async () => {
  ({ app } = await createTestApp());
  user = await createUser(app);
  cookie = await login(app, user.username, user.password);
  const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  doc = response.json<OpenApiDocument>();
});
afterAll(async () => {
  await app.close();
});

function typesOf(schema: Schema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

const variants = (schema: Schema): Schema[] => schema.anyOf ?? schema.oneOf ?? [];

function operations(): Operation[] {
  const result: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const upper = method.toUpperCase();
      if (upper !== 'GET' && upper !== 'POST') continue;
      const params = (op.parameters ?? []).filter((p) => p.in === 'query');
      const query: Schema | null =
        params.length === 0
          ? null
          : {
              type: 'object',
              properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
              required: params.filter((p) => p.required).map((p) => p.name),
            };
      const security = (op.security ?? []).flatMap((s) => Object.keys(s));
      result.push({
        method: upper,
        path,
        query,
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        session: security.includes('session'),
        admin: security.includes('adminToken'),
      });
    }
  }
  return result;
}

/** A value the schema accepts, as small as the schema allows (ids far from any real row). */
function sample(schema: Schema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choices = variants(schema);
  if (choices.length > 0) {
    const first = choices.find((c) => !typesOf(c).includes('null')) ?? choices[0];
    return first ? sample(first) : null;
  }
  const [type] = typesOf(schema);
  switch (type) {
    case 'integer':
    case 'number': {
      let value = 1_000_000_000;
      if (schema.maximum !== undefined) value = Math.min(value, schema.maximum);
      if (schema.minimum !== undefined) value = Math.max(value, schema.minimum);
      return value;
    }
    case 'string': {
      const min = schema.minLength ?? 0;
      const candidates = ['a'.repeat(Math.max(1, min)), '', `1${'0'.repeat(10)}`];
      const fits = (value: string) =>
        value.length >= min &&
        (schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(value));
      return candidates.find(fits) ?? candidates[0];
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return (schema.minItems ?? 0) > 0 && schema.items ? [sample(schema.items)] : [];
    default: {
      const object: Record<string, unknown> = {};
      for (const key of schema.required ?? []) {
        const property = schema.properties?.[key];
        if (property) object[key] = sample(property);
      }
      return object;
    }
  }
}

interface Leaf {
  /** Property names and `0` for an array item; `*` for a value of a free-keyed map. */
  path: string[];
  kind: 'number' | 'string' | 'key';
  /** The field name a validation message must carry. */
  label: string;
}

function leaves(schema: Schema, path: string[] = [], label = ''): Leaf[] {
  const seen = new Set<string>();
  return leavesOf(schema, path, label).filter((leaf) => {
    const key = `${leaf.kind} ${leaf.path.join('.')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function leavesOf(schema: Schema, path: string[], label: string): Leaf[] {
  const own = schema.title ?? label;
  const choices = variants(schema);
  if (choices.length > 0) return choices.flatMap((c) => leavesOf({ title: own, ...c }, path, own));
  const types = typesOf(schema);
  if (schema.const !== undefined || schema.enum) {
    // A closed set still gets a string with NUL and numbers out of range.
    return [{ path, kind: types.includes('string') ? 'string' : 'number', label: own }];
  }
  if (types.includes('integer') || types.includes('number'))
    return [{ path, kind: 'number', label: own }];
  if (types.includes('string')) return [{ path, kind: 'string', label: own }];
  if (types.includes('array') && schema.items) return leavesOf(schema.items, [...path, '0'], own);
  const result: Leaf[] = [];
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    result.push(...leavesOf(property, [...path, key], property.title ?? key));
  }
  const free =
    Object.values(schema.patternProperties ?? {})[0] ??
    (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
  if (free) {
    result.push({ path: [...path, '*'], kind: 'key', label: own });
    result.push(...leavesOf(free, [...path, '*'], own));
  }
  return result;
}

function childSchema(schema: Schema, segment: string): Schema {
  const choices = variants(schema);
  const node =
    choices.length > 0
      ? (choices.find((c) => (segment === '0' ? c.items : c.properties || c.patternProperties)) ??
        schema)
      : schema;
  if (segment === '0') return node.items ?? {};
  if (segment === '*') {
    return (
      Object.values(node.patternProperties ?? {})[0] ??
      (typeof node.additionalProperties === 'object' ? node.additionalProperties : {})
    );
  }
  return node.properties?.[segment] ?? {};
}

/** A valid sample of `schema` with `value` put at `path` (parents made as needed). */
function withValue(schema: Schema, path: string[], value: unknown, asKey = false): unknown {
  const [segment, ...rest] = path;
  if (segment === undefined) return value;
  const child = childSchema(schema, segment);
  if (segment === '0') return [withValue(child, rest, value, asKey)];
  const base = sample(schema);
  const object = typeof base === 'object' && base !== null && !Array.isArray(base) ? base : {};
  if (segment === '*') {
    if (asKey && rest.length === 0) return { ...object, [String(value)]: sample(child) };
    return { ...object, k: withValue(child, rest, value, asKey) };
  }
  return { ...object, [segment]: withValue(child, rest, value, asKey) };
}

function queryString(values: Record<string, unknown>): string {
  return Object.entries(values)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
}

function json(value: unknown, raw?: string): string {
  const text = JSON.stringify(value);
  return raw === undefined ? text : text.replace(JSON.stringify(RAW), raw);
}

function cases(op: Operation): Case[] {
  const result: Case[] = [];
  if (op.query) {
    const query = op.query;
    for (const leaf of leaves(query)) {
      const bad = leaf.kind === 'number' ? BAD_NUMBERS : [NUL_TEXT];
      for (const value of bad) {
        result.push({
          name: `query ${leaf.path.join('.')}=${JSON.stringify(value)}`,
          query: queryString(withValue(query, leaf.path, value) as Record<string, unknown>),
          invalid: value !== '-1',
          label: leaf.label,
        });
      }
    }
  }
  if (op.body) {
    const body = op.body;
    for (const leaf of leaves(body)) {
      const where = leaf.path.join('.');
      if (leaf.kind === 'key') {
        for (const [what, text] of BAD_JSON_TEXTS) {
          result.push({
            name: `body key ${where} with ${what}`,
            payload: json(withValue(body, leaf.path, text, true)),
            invalid: true,
            label: leaf.label,
          });
        }
      } else if (leaf.kind === 'number') {
        for (const token of BAD_JSON_NUMBERS) {
          result.push({
            name: `body ${where}=${token}`,
            payload: json(withValue(body, leaf.path, RAW), token),
            invalid: token !== '-1',
            label: leaf.label,
          });
        }
      } else {
        for (const [what, text] of BAD_JSON_TEXTS) {
          result.push({
            name: `body ${where} with ${what}`,
            payload: json(withValue(body, leaf.path, text)),
            invalid: true,
            label: leaf.label,
          });
        }
      }
    }
  }
  if (op.method === 'POST') {
    // Whatever the route reads: an empty or garbled body, multipart bodies that cannot be parsed
    // (the upload routes read multipart; the others must refuse the content type), and bodies
    // of a type the route does not take.
    const boundary = 'kolMalformedBoundary';
    const part =
      `--${boundary}\r\nContent-Disposition: form-data; name="remote"\r\n\r\nmfe_user\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n` +
      'Content-Type: image/png\r\n\r\n\u0089PNG\r\n\u001a\n0123456789';
    result.push(
      { name: 'empty JSON body', payload: '', contentType: 'application/json', invalid: true },
      {
        name: 'garbled JSON body',
        payload: '{"a":',
        contentType: 'application/json',
        invalid: true,
      },
      {
        name: 'JSON body not an object',
        payload: '[1]',
        contentType: 'application/json',
        invalid: true,
      },
      {
        name: 'multipart without boundary',
        payload: part,
        contentType: 'multipart/form-data',
        invalid: true,
      },
      {
        name: 'multipart cut off mid-part',
        payload: Buffer.from(part, 'latin1'),
        contentType: `multipart/form-data; boundary=${boundary}`,
        invalid: true,
      },
      {
        name: 'multipart with a boundary over 256 characters',
        payload: part,
        contentType: `multipart/form-data; boundary=${'b'.repeat(300)}`,
        invalid: true,
      },
      { name: 'plain-text body', payload: 'hello', contentType: 'text/plain', invalid: true },
      {
        name: 'unsupported content type',
        payload: 'hello',
        contentType: 'application/octet-stream',
        invalid: true,
      },
    );
  }
  if (result.length === 0) result.push({ name: 'no input', invalid: false });
  return result;
}

function modes(op: Operation): Mode[] {
  return op.admin ? ['anonymous', 'session', 'admin'] : ['anonymous', 'session'];
}

async function send(op: Operation, mode: Mode, c: Case): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...PC };
  if (mode === 'admin') headers.authorization = `Bearer ${ADMIN_TOKEN}`;
  if (c.payload !== undefined) headers['content-type'] = c.contentType ?? 'application/json';
  const response = await app.inject({
    method: op.method,
    url: c.query ? `${op.path}?${c.query}` : op.path,
    headers,
    ...(mode === 'session' ? { cookies: { kol_session: cookie } } : {}),
    ...(c.payload !== undefined ? { payload: c.payload } : {}),
  });
  // A call that ended the session (logout) must not leave the rest of the run signed out.
  const cleared = response.cookies.find((k) => k.name === 'kol_session' && !k.value);
  if (mode === 'session' && cleared) cookie = await login(app, user.username, user.password);
  else if (mode === 'session' && response.cookies.some((k) => k.name === 'kol_session')) {
    cookie = sessionCookie(response);
  }
  return response;
}

function envelope(response: LightMyRequestResponse): { code?: number; msg?: string } {
  try {
    return response.json<{ code?: number; msg?: string }>();
  } catch {
    return {};
  }
}

/** Whether this mode is the one the operation is meant to be called in. */
const authorized = (op: Operation, mode: Mode) =>
  op.admin ? mode === 'admin' : mode === 'session';

describe('malformed input on every operation of the OpenAPI document', () => {
  it('never answers 5xx, refuses in Chinese, asks for a session first and names the field', async () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(50);
    const serverErrors: string[] = [];
    const notChinese: string[] = [];
    const notUnauthorized: string[] = [];
    const notRefused: string[] = [];
    const failingOps = new Set<string>();
    let calls = 0;
    for (const op of ops) {
      const name = `${op.method} ${op.path}`;
      for (const mode of modes(op)) {
        for (const c of cases(op)) {
          calls += 1;
          const response = await send(op, mode, c);
          const { msg = '' } = envelope(response);
          const line = `${name} [${mode}] ${c.name}: ${response.statusCode} ${msg.slice(0, 120)}`;
          if (response.statusCode >= 500) {
            serverErrors.push(line);
            failingOps.add(name);
            continue;
          }
          if (response.statusCode >= 400 && !CHINESE.test(msg)) notChinese.push(line);
          if (mode === 'anonymous' && op.session && response.statusCode !== 401) {
            notUnauthorized.push(line);
          }
          if (authorized(op, mode) && c.invalid) {
            const named = c.label === undefined || msg.includes(`「${c.label}」`);
            if (response.statusCode !== 400 || !named) {
              notRefused.push(c.label ? `${line} (expected「${c.label}」)` : line);
            }
          }
        }
      }
    }
    console.log(
      `malformed input: ${calls} calls on ${ops.length} operations; ` +
        `${serverErrors.length} answers 5xx on ${failingOps.size} operations` +
        (serverErrors.length > 0 ? `\n${serverErrors.join('\n')}` : ''),
    );
    expect(serverErrors).toEqual([]);
    expect(notChinese).toEqual([]);
    expect(notUnauthorized).toEqual([]);
    expect(notRefused).toEqual([]);
  });

  it('documents which operations need a session', () => {
    const byName = new Map(operations().map((op) => [`${op.method} ${op.path}`, op]));
    expect(byName.get('GET /api/user/current')?.session).toBe(true);
    expect(byName.get('POST /api/file/upload_image')?.session).toBe(true);
    for (const open of [
      'POST /api/user/login',
      'GET /api/platform/config',
      'GET /api/sso/verify',
    ]) {
      expect(byName.get(open)?.session).toBe(false);
    }
  });

  it('bounds every number a request may carry (ids fit a PostgreSQL integer)', () => {
    const unbounded: string[] = [];
    const visit = (schema: Schema, where: string) => {
      for (const c of variants(schema)) visit(c, where);
      const types = typesOf(schema);
      if (
        (types.includes('integer') || types.includes('number')) &&
        schema.const === undefined &&
        !schema.enum &&
        ((schema.minimum ?? schema.exclusiveMinimum) === undefined ||
          (schema.maximum ?? schema.exclusiveMaximum) === undefined ||
          (types.includes('integer') &&
            ((schema.maximum ?? schema.exclusiveMaximum ?? 0) > 2_147_483_647 ||
              (schema.minimum ?? schema.exclusiveMinimum ?? 0) < -2_147_483_648)))
      ) {
        unbounded.push(where);
      }
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        visit(property, `${where}.${key}`);
      }
      if (schema.items) visit(schema.items, `${where}[]`);
      for (const value of Object.values(schema.patternProperties ?? {})) visit(value, `${where}.*`);
    };
    for (const op of operations()) {
      if (op.query) visit(op.query, `${op.method} ${op.path} query`);
      if (op.body) visit(op.body, `${op.method} ${op.path} body`);
    }
    expect(unbounded).toEqual([]);
  });
});
