import { useEffect, useState } from 'react';
import {
  addRoleToTask,
  getWorks,
  initRoleTask,
  type ProjectType,
  type Role,
  type WorkSummary,
  errorMessage,
} from '@kol/shared-sdk';
import { workTypesFor } from '../role-types';

/** How many recent works of each type the dialog offers. */
export const ROLE_VIDEO_WORKS = 20;

const newestFirst = (a: WorkSummary, b: WorkSummary) =>
  Date.parse(b.updateTime) - Date.parse(a.updateTime) || b.workId - a.workId;

/**
 * The user's works that can take a role of this kind (`get_works` per video type, newest first),
 * for 用于视频. Works of other types have no roles (`init_task` refuses them).
 */
export function useRoleVideos(roleType: number | null) {
  const [works, setWorks] = useState<WorkSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    Promise.all(
      workTypesFor(roleType).map((type) =>
        getWorks({ type, pageIndex: 1, pageSize: ROLE_VIDEO_WORKS }),
      ),
    )
      .then((pages) => {
        if (!live) return;
        const all = pages.flatMap((page) => page.items).sort(newestFirst);
        setWorks(all.slice(0, ROLE_VIDEO_WORKS));
        setError(null);
      })
      .catch((failure: unknown) => {
        if (live) setError(errorMessage(failure));
      });
    return () => {
      live = false;
    };
  }, [roleType, version]);

  return {
    works,
    error,
    loading: works === null && error === null,
    reload: () => {
      setError(null);
      setWorks(null);
      setVersion((count) => count + 1);
    },
  };
}

/**
 * Copies a library role into a work's role task: the work's task (`init_task`, which answers the
 * work's one task), then `add_role_to_task`. The copy is the work's own; the library role stays.
 */
export async function addRoleToWork(role: Role, work: WorkSummary): Promise<Role> {
  const { taskId } = await initRoleTask({ type: work.type as ProjectType, workId: work.workId });
  return addRoleToTask({ roleId: role.roleId, taskId });
}
