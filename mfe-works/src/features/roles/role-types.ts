import { ProjectType, VIDEO_TYPES, type RoleInput, type WorkSummary } from '@kol/shared-sdk';

/** The kinds a library role can have: the contract's ROLE_LIBRARY_TYPES (0, 5, 11). */
export type RoleType = NonNullable<RoleInput['type']>;

export interface RoleTypeOption {
  type: RoleType;
  label: string;
}

/**
 * The kinds in the order the filter and the form offer them. Spelled out here because the
 * browser takes only types from the contracts (the constant lives with the schemas).
 */
export const ROLE_TYPES: readonly RoleTypeOption[] = [
  { type: ProjectType.comics, label: '漫剪' },
  { type: ProjectType.comicsOverseas, label: '海外漫剪' },
  { type: ProjectType.animeShorts, label: 'AI漫剧' },
];

/** A query string's `type` as a role kind; anything else (absent, garbage) is no filter. */
export function parseRoleType(value: string | null): RoleType | null {
  return ROLE_TYPES.find((option) => String(option.type) === value)?.type ?? null;
}

/** A role's kind when it is one of the library's; null otherwise. */
export function asRoleType(type: number | null | undefined): RoleType | null {
  return ROLE_TYPES.find((option) => option.type === type)?.type ?? null;
}

/** The tag of a role's kind; null for a role without one. */
export function roleTypeLabel(type: number | null): string | null {
  return ROLE_TYPES.find((option) => option.type === type)?.label ?? null;
}

/**
 * The video types whose works can take a role of this kind. A comic role looks the same in a
 * domestic or an overseas comic clip; a role without a kind is drawn as a comic's by the server
 * (re_gen_img), so it goes where a comic role goes.
 */
export function workTypesFor(type: number | null): ProjectType[] {
  return type === ProjectType.animeShorts
    ? [ProjectType.animeShorts]
    : [ProjectType.comics, ProjectType.comicsOverseas];
}

/** Where a new video of a role's kind starts, with its name, for the no-works case. */
export function newVideoFor(type: number | null): { label: string; path: string } {
  const wanted =
    type === ProjectType.animeShorts || type === ProjectType.comicsOverseas
      ? type
      : ProjectType.comics;
  const entry = VIDEO_TYPES.find((item) => item.type === wanted);
  return entry
    ? { label: entry.label, path: entry.startPath }
    : { label: '漫剪视频', path: '/video/config?videoType=0' };
}

/**
 * The roles page of a work, where the copied role is edited further: the anime flow has a roles
 * step of its own (spec section 2), the comic clip flow's is `/video/character`.
 */
export function rolesPageOf(work: Pick<WorkSummary, 'workId' | 'type'>): string {
  const query = `?workId=${work.workId}&videoType=${work.type}`;
  return work.type === ProjectType.animeShorts
    ? `/video/animeCharacter${query}`
    : `/video/character${query}`;
}
