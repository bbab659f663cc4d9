import { useQueries, useQueryClient } from '@tanstack/react-query';
import {
  addRoleToTask,
  getWorks,
  initRoleTask,
  type ProjectType,
  type Role,
  type WorkSummary,
  errorMessage,
} from '@kol/shared-sdk';
import { worksKey } from '../../../lib/query-keys';
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
  const client = useQueryClient();
  const keys = workTypesFor(roleType).map((type) =>
    worksKey({ type, pageIndex: 1, pageSize: ROLE_VIDEO_WORKS }),
  );
  const { works, error } = useQueries({
    queries: keys.map((queryKey) => ({
      queryKey,
      queryFn: ({ signal }: { signal: AbortSignal }) => getWorks(queryKey[1], { signal }),
    })),
    combine: (results) => {
      const failed = results.find((result) => result.error);
      const pages = results.map((result) => result.data);
      return {
        error: failed?.error ? errorMessage(failed.error) : null,
        // Every type's page, or nothing yet.
        works: pages.every((page) => page !== undefined)
          ? pages
              .flatMap((page) => page?.items ?? [])
              .sort(newestFirst)
              .slice(0, ROLE_VIDEO_WORKS)
          : null,
      };
    },
  });

  return {
    works,
    error,
    loading: works === null && error === null,
    /** Asks again from nothing (the spinner, not the failure, while it is asked). */
    reload: () => {
      for (const queryKey of keys) void client.resetQueries({ queryKey, exact: true });
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
