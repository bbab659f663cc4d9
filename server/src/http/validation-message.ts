import type { FastifySchemaValidationError } from 'fastify';

/** The JSON Schema keywords this file reads; TypeBox schemas are plain JSON Schema. */
interface SchemaNode {
  title?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

const TYPE_NAMES: Record<string, string> = {
  integer: '整数',
  number: '数字',
  string: '文本',
  boolean: '是或否',
  array: '列表',
  object: '对象',
};

function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null;
}

/** Follows a JSON pointer such as `/items/0/name` through `properties` and `items`. */
function schemaAt(root: unknown, pointer: string): SchemaNode | undefined {
  let node = isSchemaNode(root) ? root : undefined;
  for (const segment of pointer.split('/').filter(Boolean)) {
    if (!node) return undefined;
    node = node.properties?.[segment] ?? (/^\d+$/.test(segment) ? node.items : undefined);
  }
  return node;
}

function label(node: SchemaNode | undefined, pointer: string): string {
  if (node?.title) return node.title;
  const last = pointer.split('/').filter(Boolean).pop();
  return last ?? '请求参数';
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
    return `「${label(schemaAt(rootSchema, field), field)}」不能为空`;
  }
  const name = `「${label(schemaAt(rootSchema, pointer), pointer)}」`;
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
