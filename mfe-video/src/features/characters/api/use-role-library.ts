import { useEffect, useState } from 'react';
import { ProjectType, getRoles, getWorks, initRoleTask, type Role } from '@kol/shared-sdk';
import { errorMessage } from '../../../lib/error-message';

/** Video types whose works have roles (`init_task` refuses the others). */
const TYPES_WITH_ROLES: ReadonlySet<number> = new Set([
  ProjectType.comics,
  ProjectType.comicsOverseas,
  ProjectType.animeShorts,
  ProjectType.realOpera,
]);
/** How many recent works the library looks through. */
const LIBRARY_WORKS = 20;

export interface LibraryRole {
  role: Role;
  /** The work it was made for. */
  workTitle: string;
}

/**
 * The role library: the roles of the user's other recent works. The server has no call that
 * lists a user's roles, so each work's role task is found with `init_task` (which answers the
 * work's one task) and read with `get_roles`.
 */
export function useRoleLibrary(currentWorkId: number | null) {
  const [roles, setRoles] = useState<LibraryRole[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      try {
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
        if (!live) return;
        setRoles(lists.flat());
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
