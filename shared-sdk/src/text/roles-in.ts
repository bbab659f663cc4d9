/**
 * The roles a text names, in the order it first names them: who is drawn in a shot. Longer names
 * are looked for first, and a name inside a longer one found at the same place (林 in 林动) does
 * not count there. The server builds each shot's picture request with it and the comic flow's
 * prompt page shows the same roles, so both must be this one function.
 */
export function rolesIn<R extends { name: string }>(text: string, roles: readonly R[]): R[] {
  const found: Array<{ role: R; at: number }> = [];
  const longestFirst = [...roles]
    .filter((r) => r.name)
    .sort((a, b) => b.name.length - a.name.length);
  const taken: Array<[number, number]> = [];
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
