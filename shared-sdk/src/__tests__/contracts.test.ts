import { describe, expect, it } from '@jest/globals';
import * as contracts from '../contracts';
import type { EndpointDef } from '../contracts';

/** Where in `schema` a union (anyOf / oneOf) has a null branch. */
function nullUnions(schema: unknown, where: string): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  for (const keyword of ['anyOf', 'oneOf']) {
    const branches = node[keyword];
    if (Array.isArray(branches) && branches.some((b) => (b as { type?: unknown }).type === 'null'))
      found.push(where);
  }
  for (const [key, value] of Object.entries(node)) {
    if (Array.isArray(value)) {
      value.forEach((item, i) => found.push(...nullUnions(item, `${where}.${key}[${i}]`)));
    } else {
      found.push(...nullUnions(value, `${where}.${key}`));
    }
  }
  return found;
}

const endpoints = Object.entries(contracts)
  .filter(([name]) => name.endsWith('Endpoints'))
  .flatMap(([, group]) => Object.values(group as Record<string, EndpointDef>));

describe('request contracts', () => {
  it('are all found', () => {
    expect(endpoints.length).toBeGreaterThan(50);
  });

  // The server's validator coerces types and takes the first branch of a union that passes:
  // null read as 0 with the integer first, 0 read as null with null first. Nullable declares
  // one type list instead, which is coerced only when the value is none of its types.
  it('declare every nullable request field with Nullable, never as a union with null', () => {
    const unions = endpoints.flatMap((def) => [
      ...nullUnions(def.body, `${def.path} body`),
      ...nullUnions(def.query, `${def.path} query`),
    ]);
    expect(unions).toEqual([]);
  });
});
