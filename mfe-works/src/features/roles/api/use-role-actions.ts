import { useState } from 'react';
import { App } from 'antd';
import {
  addRole,
  deleteRole,
  imageUploadProblem,
  isStaleRevision,
  updateRole,
  uploadImage,
  type Role,
  errorMessage,
} from '@kol/shared-sdk';
import type { RoleType } from '../role-types';

/** What the role form sends: a library role has no task, only a kind. */
export interface RoleFields {
  name: string;
  type: RoleType;
  description: string;
}

/**
 * Changes to library roles: create and edit (`add` without a task, `update`), delete, and a
 * reference picture (`upload_image`, then `update` with its address). Each refreshes the list.
 */
export function useRoleActions(reload: () => void) {
  const { message } = App.useApp();
  const [uploadingId, setUploadingId] = useState<number | null>(null);
  const [genderId, setGenderId] = useState<number | null>(null);

  /**
   * Saves a role's gender on the revision the list read. Changed elsewhere since (a portrait
   * drawn, another tab): the list is read again and the person chooses on the newest role.
   */
  const setGender = async (role: Role, gender: Role['gender']) => {
    if (gender === role.gender) return;
    setGenderId(role.roleId);
    try {
      await updateRole({ roleId: role.roleId, revision: role.revision, gender });
      void message.success(`「${role.name}」的性别已保存`);
    } catch (error) {
      void message.error(
        isStaleRevision(error)
          ? '该角色已在其他页面修改，已载入最新内容，请重新选择'
          : errorMessage(error),
      );
    } finally {
      setGenderId(null);
      reload();
    }
  };

  /** Creates (no role) or edits one; a refusal is thrown so the form stays open with it. */
  const save = async (role: Role | null, fields: RoleFields): Promise<Role> => {
    const body = { name: fields.name.trim(), description: fields.description, type: fields.type };
    let saved: Role;
    try {
      saved = role
        ? await updateRole({ roleId: role.roleId, revision: role.revision, ...body })
        : await addRole(body);
    } catch (error) {
      // Changed in another tab since the list was read: the list is read again, and the form
      // stays open with the person's text and the server's message.
      if (isStaleRevision(error)) reload();
      throw error;
    }
    void message.success(role ? '角色已保存' : '角色已创建');
    reload();
    return saved;
  };

  /** Deletes one; a refusal is shown and thrown, so the confirmation stays open. */
  const remove = async (role: Role) => {
    try {
      await deleteRole({ roleId: role.roleId });
    } catch (error) {
      void message.error(errorMessage(error));
      throw error;
    }
    void message.success(`已删除角色「${role.name}」`);
  };

  /** Checks the file here (type, size) so a refused one never reaches the server. */
  const uploadReference = async (role: Role, file: File) => {
    const problem = imageUploadProblem(file);
    if (problem) {
      void message.error(problem);
      return;
    }
    setUploadingId(role.roleId);
    try {
      const { url } = await uploadImage(file, file.name);
      await updateRole({ roleId: role.roleId, revision: role.revision, referenceImageUrl: url });
      void message.success(`「${role.name}」的参考图已更新`);
      reload();
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setUploadingId(null);
    }
  };

  return { save, remove, uploadReference, uploadingId, setGender, genderId };
}
