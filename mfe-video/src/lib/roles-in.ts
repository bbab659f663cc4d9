import type { Role } from '@kol/shared-sdk';

/**
 * The roles a caption names, in the order it first names them. Mirrors the server's choice of
 * who is drawn in a shot (`server/src/video/pipelines/kit/prompt.ts` `rolesIn`): longer names first, and
 * a name inside a longer one found at the same place (林 in 林动) does not count there.
 */
export function rolesIn(text: string, roles: readonly Role[]): Role[] {
  const found: { role: Role; at: number }[] = [];
  const taken: [number, number][] = [];
  const longestFirst = [...roles]
    .filter((r) => r.name)
    .sort((a, b) => b.name.length - a.name.length);
  for (const role of longestFirst) {
    let at = text.indexOf(role.name);
    let first = -1;
    while (at >= 0) {
      const end = at + role.name.length;
      if (!taken.some(([start, stop]) => at >= start && end <= stop)) {
        taken.push([at, end]);
        if (first < 0) first = at;
      }
      at = text.indexOf(role.name, at + 1);
    }
    if (first >= 0) found.push({ role, at: first });
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.role);
}
