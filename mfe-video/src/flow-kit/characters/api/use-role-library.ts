import { useQuery } from '@tanstack/react-query';
import {
  ProjectType,
  getLibraryRoles,
  getRoles,
  getWorks,
  initRoleTask,
  type Role,
} from '@kol/shared-sdk';
import { useListStatus } from '../../../hooks/use-list-status';

/** Video types whose works have roles (`init_task` refuses the others). */
const TYPES_WITH_ROLES: ReadonlySet<number> = new Set([
  ProjectType.comics,
  ProjectType.comicsOverseas,
  ProjectType.animeShorts,
  ProjectType.realOpera,
]);
/** How many recent works the library looks through. */
const LIBRARY_WORKS = 20;
/** How many roles of My roles (`/work/character`) are offered. */
const MY_ROLES = 100;

export interface LibraryRole {
  role: Role;
  /** The work it was made for; null for a role of My roles (it belongs to no work). */
  workTitle: string | null;
}

/** The roles the user made in My roles (`/api/library/roles`: roles of no task), newest first. */
async function myRoles(signal: AbortSignal): Promise<LibraryRole[]> {
  const { items } = await getLibraryRoles({ pageIndex: 1, pageSize: MY_ROLES }, { signal });
  return items.map((role) => ({ role, workTitle: null }));
}

/**
 * The roles of the user's other recent works. No call lists them, so each work's role task is
 * found with `init_task` (which answers the work's one task) and read with `get_roles`.
 */
async function rolesOfOtherWorks(
  currentWorkId: number | null,
  signal: AbortSignal,
): Promise<LibraryRole[]> {
  const { items } = await getWorks({ pageIndex: 1, pageSize: LIBRARY_WORKS }, { signal });
  const works = items.filter(
    (work) => TYPES_WITH_ROLES.has(work.type) && work.workId !== currentWorkId,
  );
  const lists = await Promise.all(
    works.map(async (work) => {
      const { taskId } = await initRoleTask(
        { type: work.type as ProjectType, workId: work.workId },
        { signal },
      );
      const list = await getRoles({ taskId }, { signal });
      return list.map((role) => ({ role, workTitle: work.title }));
    }),
  );
  return lists.flat();
}

/**
 * The query key of the role library offered in a work (its own roles left out): invalidating
 * `['role-library']` reaches the library of every work.
 */
export const roleLibraryKey = (currentWorkId: number | null) =>
  ['role-library', currentWorkId] as const;

const NO_ROLES: LibraryRole[] = [];

/**
 * The role library: first the roles of My roles, made to be reused, then the roles of the
 * user's other recent works (still the way to reuse a role made inside another video). Read
 * again each time it is opened (roles are made on other pages and in My roles), the list
 * known so far shown meanwhile.
 */
export function useRoleLibrary(currentWorkId: number | null) {
  const query = useQuery({
    queryKey: roleLibraryKey(currentWorkId),
    queryFn: async ({ signal }) => {
      const [mine, ofWorks] = await Promise.all([
        myRoles(signal),
        rolesOfOtherWorks(currentWorkId, signal),
      ]);
      return [...mine, ...ofWorks];
    },
    staleTime: 0,
  });
  const { loading, error } = useListStatus(query);
  return { roles: query.data ?? NO_ROLES, loading, error };
}
