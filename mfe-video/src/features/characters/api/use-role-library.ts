import { useEffect, useState } from 'react';
import {
  ProjectType,
  getLibraryRoles,
  getRoles,
  getWorks,
  initRoleTask,
  type Role,
  errorMessage,
} from '@kol/shared-sdk';

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
async function myRoles(): Promise<LibraryRole[]> {
  const { items } = await getLibraryRoles({ pageIndex: 1, pageSize: MY_ROLES });
  return items.map((role) => ({ role, workTitle: null }));
}

/**
 * The roles of the user's other recent works. No call lists them, so each work's role task is
 * found with `init_task` (which answers the work's one task) and read with `get_roles`.
 */
async function rolesOfOtherWorks(currentWorkId: number | null): Promise<LibraryRole[]> {
  const { items } = await getWorks({ pageIndex: 1, pageSize: LIBRARY_WORKS });
  const works = items.filter(
    (work) => TYPES_WITH_ROLES.has(work.type) && work.workId !== currentWorkId,
  );
  const lists = await Promise.all(
    works.map(async (work) => {
      const { taskId } = await initRoleTask({
        type: work.type as ProjectType,
        workId: work.workId,
      });
      const list = await getRoles({ taskId });
      return list.map((role) => ({ role, workTitle: work.title }));
    }),
  );
  return lists.flat();
}

/**
 * The role library: first the roles of My roles, made to be reused, then the roles of the
 * user's other recent works (still the way to reuse a role made inside another video).
 */
export function useRoleLibrary(currentWorkId: number | null) {
  const [roles, setRoles] = useState<LibraryRole[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const [mine, ofWorks] = await Promise.all([myRoles(), rolesOfOtherWorks(currentWorkId)]);
        if (!live) return;
        setRoles([...mine, ...ofWorks]);
        setError(null);
      } catch (reason) {
        if (live) setError(errorMessage(reason));
      } finally {
        if (live) setLoading(false);
      }
    })();
    return () => {
      live = false;
    };
  }, [currentWorkId]);

  return { roles, loading, error };
}
