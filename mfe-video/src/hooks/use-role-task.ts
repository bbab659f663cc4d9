import { useCallback, useEffect, useState } from 'react';
import { getRoles, initRoleTask, type ProjectType, type Role, errorMessage } from '@kol/shared-sdk';
import type { ComicFlowStore } from '../lib/comic-flow';

/**
 * The work's role task and its roles. `init_task` answers the work's one task (made on first
 * use), so every page of the flow finds the same roles; they are remembered in the session
 * (`KOL_CHARACTER_TASK_ID`, `KOL_ROLES`) for the pages that only show them.
 */
/** The session values the role task is remembered in (the comic flow's store, the anime one's). */
export type RoleTaskStore = Pick<ComicFlowStore, 'roles' | 'setRoles' | 'setCharacterTaskId'>;

export function useRoleTask(type: ProjectType, workId: number | null, store: RoleTaskStore) {
  const [taskId, setTaskId] = useState<string | null>(null);
  const [roles, setRolesState] = useState<Role[]>(() => store.roles());
  const [loading, setLoading] = useState(workId !== null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  const setRoles = useCallback(
    (next: Role[]) => {
      setRolesState(next);
      store.setRoles(next);
    },
    [store],
  );

  useEffect(() => {
    if (workId === null) return;
    let live = true;
    (async () => {
      try {
        const task = await initRoleTask({ type, workId });
        const list = await getRoles({ taskId: task.taskId });
        if (!live) return;
        store.setCharacterTaskId(task.taskId);
        setTaskId(task.taskId);
        setRoles(list);
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
  }, [type, workId, store, setRoles, attempt]);

  /** Reads the task's roles again (after a picture was drawn, a role copied in). */
  const refresh = useCallback(async () => {
    if (!taskId) return;
    setRoles(await getRoles({ taskId }));
  }, [taskId, setRoles]);

  const reload = useCallback(() => {
    setLoading(true);
    setAttempt((n) => n + 1);
  }, []);

  return { taskId, roles, setRoles, loading, error, refresh, reload };
}
