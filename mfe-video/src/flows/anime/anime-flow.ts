import { ProjectType, sessionStore, type Role } from '@kol/shared-sdk';
import { videoQuery } from '../../lib/video-address';

/**
 * The anime short's (type 11) flow state between its pages. The type and the work travel in the
 * address (`?videoType=11&workId=12`; the storyboard and final-check pages carry the storyboard
 * task's id in the path instead, and read the work from it), so a reload on any step loses
 * nothing. The work is made as soon as the script is adapted, and every step saves onto it as
 * the creator edits (script, settings, roles, storyboard): a new tab opened on any step finds
 * the work as it was left. The source story, typed before any work exists, is the spec's
 * `KOL_ORIGINAL_CONTENT`; the roles page shares the spec's role values with the comic flow,
 * since both read their roles again from the work's role task on arrival.
 */

export const ANIME_TYPE = ProjectType.animeShorts;

/** The anime short's steps, in order. */
export const ANIME_STEPS = ['创意', '剧本', '视频配置', '角色', '分镜', '成片检查'] as const;

/** The query every page before the storyboard carries: the type, and the work once it exists. */
export function animeQuery(workId: number | null): string {
  return videoQuery(ANIME_TYPE, workId);
}

/** The work id of `?workId=`, or null. */
export { workIdOf } from '../../lib/video-address';

/** Longest story or idea the adaptation takes (what the server's adaptation reads). */
export const MAX_SOURCE_CHARS = 12_000;

/** The anime flow's session values. */
export const animeStore = {
  source: () => sessionStore.get('originalContent') ?? '',
  setSource: (text: string) => sessionStore.set('originalContent', text),
  roles: (): Role[] => sessionStore.get('roles') ?? [],
  setRoles: (roles: Role[]) => sessionStore.set('roles', roles),
  roleImages: (): Record<string, string[]> => sessionStore.get('roleImages') ?? {},
  setRoleImages: (images: Record<string, string[]>) => sessionStore.set('roleImages', images),
  setCharacterTaskId: (taskId: string) => sessionStore.set('characterTaskId', taskId),
};
