import { useCallback, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRoles, initRoleTask, type ProjectType, type Role, errorMessage } from '@kol/shared-sdk';
import type { RoleStore } from '../role-store';

/** The session values the role task is remembered in (the comic flow's store, the anime one's). */
export type RoleTaskStore = Pick<RoleStore, 'roles' | 'setRoles' | 'setCharacterTaskId'>;

interface RoleTaskData {
  taskId: string;
  roles: Role[];
}

/** The query key of a work's role task and its roles. */
export const roleTaskKey = (type: ProjectType, workId: number | null) =>
  ['role-task', type, workId] as const;

/**
 * The work's role task and its roles. `init_task` answers the work's one task (made on first
 * use), so every page of the flow finds the same roles; they are remembered in the session
 * (`KOL_CHARACTER_TASK_ID`, `KOL_ROLES`) for the pages that only show them. Read afresh each time
 * a page shows them (roles change on other pages and in My roles); the roles page's edits go
 * into the same cache entry (`setRoles`), so every page of the flow shows them.
 */
export function useRoleTask(type: ProjectType, workId: number | null, store: RoleTaskStore) {
  const client = useQueryClient();
  // What the session remembers, shown until the server answers (and kept without a work).
  const [kept, setKept] = useState<Role[]>(() => store.roles());
  const query = useQuery({
    queryKey: roleTaskKey(type, workId),
    queryFn: async ({ signal }): Promise<RoleTaskData> => {
      const task = await initRoleTask({ type, workId: workId as number }, { signal });
      const roles = await getRoles({ taskId: task.taskId }, { signal });
      store.setCharacterTaskId(task.taskId);
      store.setRoles(roles);
      return { taskId: task.taskId, roles };
    },
    enabled: workId !== null,
    staleTime: 0,
  });

  const setRoles = useCallback(
    (next: Role[]) => {
      setKept(next);
      store.setRoles(next);
      client.setQueryData<RoleTaskData>(roleTaskKey(type, workId), (current) =>
        current ? { ...current, roles: next } : current,
      );
    },
    [client, store, type, workId],
  );

  const taskId = query.data?.taskId ?? null;

  /** Reads the task's roles again (after a picture was drawn, a role copied in). */
  const refresh = useCallback(async () => {
    if (!taskId) return;
    setRoles(await getRoles({ taskId }));
  }, [taskId, setRoles]);

  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);

  return {
    taskId,
    roles: query.data?.roles ?? kept,
    setRoles,
    loading: workId !== null && query.isFetching,
    error: query.error ? errorMessage(query.error) : null,
    refresh,
    reload,
  };
}
