/**
 * A video type's pages carry the type and the work in the address (`?videoType=5&workId=12`),
 * so a reload, a new tab or a link from elsewhere (a result page's 重新生成画面) lands on the
 * same work.
 */

/** The query of a type's page: the type, and the work once it exists. */
export function videoQuery(type: number, workId: number | null): string {
  const params = new URLSearchParams({ videoType: String(type) });
  if (workId !== null) params.set('workId', String(workId));
  return `?${params.toString()}`;
}

/** A work id from the address (`?workId=`), or null. */
export function workIdOf(params: URLSearchParams): number | null {
  const id = Number(params.get('workId'));
  return Number.isInteger(id) && id > 0 ? id : null;
}
