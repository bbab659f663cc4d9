import { ProjectType, VIDEO_TYPES, type WorkSummary } from '@kol/shared-sdk';

/** The comic clip types, whose flow can pick a saved work up at its captions. */
const CAPTION_FLOW_TYPES: readonly number[] = [ProjectType.comics, ProjectType.comicsOverseas];

/**
 * Where a work never generated is taken on: a comic clip work (such as a text saved in My copy)
 * continues at its captions with its own text; the other types start their flow, which does not
 * take a saved work yet.
 */
export function makePathOf(work: Pick<WorkSummary, 'workId' | 'type'>): string {
  if (CAPTION_FLOW_TYPES.includes(work.type)) {
    return `/video/caption?workId=${work.workId}&videoType=${work.type}`;
  }
  return VIDEO_TYPES.find((entry) => entry.type === work.type)?.startPath ?? '/video';
}

/** The finished video's page, with its player, details and downloads. */
export const videoPathOf = (taskId: string) => `/video/short/${encodeURIComponent(taskId)}`;

/** The editor of a made video. */
export const cutPathOf = (workId: number) => `/work/cut/${workId}`;
