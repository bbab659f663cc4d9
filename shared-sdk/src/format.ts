/** Times as the pages show them; one format across the host and every remote. */
const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-21T20:54:07.239Z` → `2026-11-21 20:54` in the viewer's time zone; other text as is. */
export function formatTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
