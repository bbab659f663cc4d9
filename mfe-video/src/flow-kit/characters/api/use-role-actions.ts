import { useState } from 'react';
import { App } from 'antd';
import {
  addRole,
  addRoleToTask,
  deleteRole,
  extractRoles,
  getRoles,
  isApiError,
  regenerateRoleImage,
  updateRole,
  type Role,
  errorMessage,
} from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { useImageTasks } from '../../../hooks/use-image-tasks';
import type { RoleStore } from '../role-store';

/** What a role card edits. */
export interface RoleText {
  name: string;
  description: string;
  /** Null: 未知. */
  gender: Role['gender'];
}

/** A role card's edit: the text it started from, the text now, and the revision it started at. */
export interface RoleEdit {
  base: RoleText;
  edited: RoleText;
  revision: number;
}

interface RoleActionsInput {
  taskId: string | null;
  roles: Role[];
  setRoles: (roles: Role[]) => void;
  refresh: () => Promise<void>;
  /** Where drawn portraits are remembered (`KOL_ROLE_IMAGES`). */
  store: Pick<RoleStore, 'roleImages' | 'setRoleImages'>;
}

/**
 * What the roles page does with the work's roles: extract them from the text, add, edit and
 * delete them, copy one from the library, and draw portraits (`re_gen_img`, followed with
 * `img_result`; the pictures land on the role and in `KOL_ROLE_IMAGES`).
 */
export function useRoleActions({ taskId, roles, setRoles, refresh, store }: RoleActionsInput) {
  const { message } = App.useApp();
  const revisionedSave = useRevisionedSave();
  const [extracting, setExtracting] = useState(false);
  const [engine, setEngine] = useState<string | null>(null);
  const [roleImages, setRoleImages] = useState(() => store.roleImages());

  const images = useImageTasks((key, result) => {
    if (result.state !== 'succeeded' || !result.imageUrl) return;
    setRoleImages((current) => {
      const next = { ...current, [key]: [...(current[key] ?? []), result.imageUrl] };
      store.setRoleImages(next);
      return next;
    });
    // The server put the picture on the role (the first becomes its reference).
    refresh().catch(() => undefined);
  });

  const failed = (error: unknown) => {
    void message.error(errorMessage(error));
  };

  const extract = async (text: string) => {
    if (!taskId) return;
    if (!text.trim()) {
      void message.warning('还没有视频文案，无法提取角色');
      return;
    }
    setExtracting(true);
    try {
      const found = await extractRoles({ taskId, text });
      setEngine(found.engine);
      await refresh();
      if (found.roles.length === 0) void message.info('没有在文案中找到角色，可以手动添加');
      else void message.success(`提取到 ${found.roles.length} 个角色`);
    } catch (error) {
      failed(error);
    } finally {
      setExtracting(false);
    }
  };

  /**
   * Saves a role card's edit on the revision it started from. A portrait drawn since (or another
   * tab's change of the other field) is merged in; the same field changed elsewhere asks the
   * person. Answers the role as it now is: saved, or the newest when they chose it.
   */
  const save = async (roleId: number, edit: RoleEdit): Promise<Role | null> => {
    const textOf = (role: Role): RoleText => ({
      name: role.name,
      description: role.description,
      gender: role.gender,
    });
    let list = roles;
    const newest = async () => {
      list = taskId ? await getRoles({ taskId }) : [];
      setRoles(list);
      const role = list.find((item) => item.roleId === roleId);
      if (!role) throw new Error('这个角色已被删除');
      return role;
    };
    try {
      const updated = await revisionedSave<RoleText, Role>({
        ...edit,
        save: (value, revision) => updateRole({ roleId, revision, ...value }),
        load: async () => {
          const role = await newest();
          return { value: textOf(role), revision: role.revision };
        },
      });
      if (!updated) return await newest();
      setRoles(list.map((role) => (role.roleId === roleId ? updated : role)));
      void message.success('角色已保存');
      return updated;
    } catch (error) {
      void message.error(
        error instanceof Error && !isApiError(error) ? error.message : errorMessage(error),
      );
      return null;
    }
  };

  /** Adds a role; without a gender the server infers one from the description and name. */
  const add = async (
    name: string,
    description: string,
    gender?: Role['gender'],
  ): Promise<boolean> => {
    if (!taskId) return false;
    try {
      const role = await addRole({
        taskId,
        name,
        description,
        ...(gender !== undefined ? { gender } : {}),
      });
      setRoles([...roles, role]);
      return true;
    } catch (error) {
      failed(error);
      return false;
    }
  };

  const remove = async (roleId: number) => {
    try {
      await deleteRole({ roleId });
      setRoles(roles.filter((role) => role.roleId !== roleId));
    } catch (error) {
      failed(error);
    }
  };

  const copyFromLibrary = async (role: Role) => {
    if (!taskId) return;
    try {
      const copy = await addRoleToTask({ roleId: role.roleId, taskId });
      setRoles([...roles, copy]);
      void message.success(`已加入角色「${copy.name}」`);
    } catch (error) {
      failed(error);
    }
  };

  const draw = (roleId: number, prompt: string) =>
    images.start(String(roleId), () =>
      regenerateRoleImage({ roleId, ...(prompt.trim() ? { prompt: prompt.slice(0, 2000) } : {}) }),
    );

  /** Every picture of a role, the reference first, with the ones drawn on this page. */
  const picturesOf = (role: Role): string[] => {
    const all = [role.referenceImageUrl, ...role.imageUrls, ...(roleImages[role.roleId] ?? [])];
    return [...new Set(all.filter(Boolean))];
  };

  return {
    extract,
    extracting,
    engine,
    save,
    add,
    remove,
    copyFromLibrary,
    draw,
    drawing: images.pictures,
    picturesOf,
  };
}
