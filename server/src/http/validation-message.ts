import type { FastifySchemaValidationError } from 'fastify';

/** The JSON Schema keywords this file reads; TypeBox schemas are plain JSON Schema. */
interface SchemaNode {
  type?: string | string[];
  title?: string;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
}

const TYPE_NAMES: Record<string, string> = {
  integer: '整数',
  number: '数字',
  string: '文本',
  boolean: '是或否',
  array: '列表',
  object: '对象',
};

/** What a field is called when nothing more precise is known. */
const WHOLE_INPUT = '请求参数';

function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null;
}

/**
 * One step of a JSON pointer into a schema: a named property, an item of a list, or a value of
 * a free-keyed map (TypeBox Record). `named` says whether the segment is a field name of the
 * schema (and so may name the field) rather than an index or a key the caller chose.
 */
function step(
  node: SchemaNode | undefined,
  segment: string,
): { node: SchemaNode | undefined; named: boolean } {
  if (!node) return { node: undefined, named: false };
  const property = node.properties?.[segment];
  if (property) return { node: property, named: true };
  if (/^\d+$/.test(segment) && node.items) return { node: node.items, named: false };
  const free =
    Object.values(node.patternProperties ?? {})[0] ??
    (isSchemaNode(node.additionalProperties) ? node.additionalProperties : undefined);
  if (free) return { node: free, named: false };
  // A union (e.g. a value or null): the first member that has the step.
  for (const member of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
    const found = step(member, segment);
    if (found.node) return found;
  }
  // A one-item list given for a number: ajv (coerceTypes 'array') unwraps it to the number.
  if (/^\d+$/.test(segment) && numberSchema(node)) return { node, named: false };
  return { node: undefined, named: false };
}

/**
 * The name of the field at a JSON pointer such as `/shots/0/roleIds/1`: its schema `title`;
 * else its property name; an item of a list or a value of a map without a title of its own is
 * named by its list or map; a key the schema does not know by the object that holds it (never
 * by the caller's own text).
 */
export function fieldLabel(rootSchema: unknown, pointer: string): string {
  let node = isSchemaNode(rootSchema) ? rootSchema : undefined;
  let name = WHOLE_INPUT;
  for (const escaped of pointer.split('/').filter(Boolean)) {
    const segment = escaped.replace(/~1/g, '/').replace(/~0/g, '~');
    const next = step(node, segment);
    name = next.node?.title ?? (next.named ? segment : name);
    node = next.node;
  }
  return name;
}

function param(error: FastifySchemaValidationError, name: string): unknown {
  return (error.params as Record<string, unknown>)[name];
}

/**
 * Turns the first schema error into one Chinese sentence naming the field by its schema
 * `title`, e.g. 「用户名」不能为空 or 「手机号」格式不正确.
 */
export function validationMessage(
  error: FastifySchemaValidationError,
  rootSchema: unknown,
): string {
  const pointer = error.instancePath;
  if (error.keyword === 'required') {
    const missing = String(param(error, 'missingProperty'));
    const field = `${pointer}/${missing}`;
    return `「${fieldLabel(rootSchema, field)}」不能为空`;
  }
  const name = `「${fieldLabel(rootSchema, pointer)}」`;
  const limit = param(error, 'limit');
  switch (error.keyword) {
    case 'type': {
      if (pointer === '') return '请求内容格式不正确';
      const expected = String(param(error, 'type'));
      return `${name}必须是${TYPE_NAMES[expected] ?? expected}`;
    }
    case 'minLength':
      return Number(limit) <= 1 ? `${name}不能为空` : `${name}至少需要 ${String(limit)} 个字符`;
    case 'maxLength':
      return `${name}不能超过 ${String(limit)} 个字符`;
    case 'pattern':
    case 'format':
      return `${name}格式不正确`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `${name}不能小于 ${String(limit)}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `${name}不能大于 ${String(limit)}`;
    case 'minItems':
      return `${name}至少需要 ${String(limit)} 项`;
    case 'maxItems':
      return `${name}最多 ${String(limit)} 项`;
    case 'additionalProperties':
      return `不支持的参数「${String(param(error, 'additionalProperty'))}」`;
    default:
      return `${name}的值不正确`;
  }
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The schema at a JSON pointer (through properties, list items, map values and unions). */
function schemaAt(rootSchema: unknown, pointer: string): SchemaNode | undefined {
  let node = isSchemaNode(rootSchema) ? rootSchema : undefined;
  for (const escaped of pointer.split('/').filter(Boolean)) {
    node = step(node, escaped.replace(/~1/g, '/').replace(/~0/g, '~')).node;
  }
  return node;
}

/** The integer or number schema a value at this node may be (itself, or a member of a union). */
function numberSchema(node: SchemaNode | undefined): SchemaNode | undefined {
  if (!node) return undefined;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('integer') || types.includes('number')) return node;
  for (const member of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
    const found = numberSchema(member);
    if (found) return found;
  }
  return undefined;
}

/**
 * A UTF-16 surrogate without its pair: JSON.stringify writes it as `\ud800`, which PostgreSQL's
 * jsonb refuses (and `text` would get U+FFFD in its place). JSON.parse lets it through.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A key or value PostgreSQL cannot store, named by `label`; null when it can. */
function unstorableMessage(value: string, label: () => string): string | null {
  if (value.includes('\u0000')) return `「${label()}」不能包含空字符（U+0000）`;
  if (LONE_SURROGATE.test(value)) return `「${label()}」包含无效的字符（不成对的代理项）`;
  return null;
}

/**
 * What a string of the input may not be, whatever its field:
 * - hold U+0000 or a lone surrogate, which PostgreSQL cannot store in `text` or `jsonb` (the
 *   save would fail with a 500 wherever it happens);
 * - be, in a number field, a number too large to be finite (`1e400`): ajv coerces it to
 *   Infinity and then skips `minimum` and `maximum` (its number keywords only look at finite
 *   numbers), so the bounds of the contract would not hold.
 */
function stringMessage(value: string, rootSchema: unknown, pointer: string): string | null {
  const unstorable = unstorableMessage(value, () => fieldLabel(rootSchema, pointer));
  if (unstorable) return unstorable;
  const number = Number(value);
  if (Number.isFinite(number) || Number.isNaN(number) || value.trim() === '') return null;
  const schema = numberSchema(schemaAt(rootSchema, pointer));
  if (!schema) return null;
  const name = `「${fieldLabel(rootSchema, pointer)}」`;
  if (number > 0 && schema.maximum !== undefined) return `${name}不能大于 ${schema.maximum}`;
  if (number < 0 && schema.minimum !== undefined) return `${name}不能小于 ${schema.minimum}`;
  return `${name}必须是有限的数字`;
}

/**
 * Checks a request part (body, query or params) against the rules of `stringMessage` before its
 * schema validation, and answers the Chinese message naming the first field that breaks one
 * (a key that cannot be stored is named by its object: the key is the caller's own text); null
 * when the part is fine. The walk is iterative, so a deeply nested body cannot overflow the
 * stack.
 */
export function inputRuleMessage(input: unknown, rootSchema: unknown): string | null {
  const pending: Array<{ value: unknown; pointer: string }> = [{ value: input, pointer: '' }];
  while (pending.length > 0) {
    const { value, pointer } = pending.pop() as { value: unknown; pointer: string };
    if (typeof value === 'string') {
      const message = stringMessage(value, rootSchema, pointer);
      if (message) return message;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    if (!Array.isArray(value)) {
      for (const [key] of entries) {
        const unstorable = unstorableMessage(key, () => fieldLabel(rootSchema, pointer));
        if (unstorable) return unstorable;
      }
    }
    // Pushed in reverse, so the first field in the input is reported first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i] as readonly [string, unknown];
      pending.push({ value: item, pointer: `${pointer}/${escapePointer(key)}` });
    }
  }
  return null;
}
