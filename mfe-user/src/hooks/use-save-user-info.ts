import { useCallback, useState } from 'react';
import { useSetAtom } from 'jotai';
import { updateUserInfo, type UpdateUserInfoBody, type UserInfo } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';

/**
 * Saves part of the user's info and puts the server's answer in the host's `currentUserAtom`,
 * so the shell (its posting-account prompt, its header) sees the change at once. Rejects with
 * the SDK's ApiError; the caller tells the user and keeps what they typed.
 */
export function useSaveUserInfo() {
  const setCurrentUser = useSetAtom(currentUserAtom);
  const [saving, setSaving] = useState(false);

  const save = useCallback(
    async (changes: UpdateUserInfoBody): Promise<UserInfo> => {
      setSaving(true);
      try {
        const user = await updateUserInfo(changes);
        setCurrentUser(user);
        return user;
      } finally {
        setSaving(false);
      }
    },
    [setCurrentUser],
  );

  return { save, saving };
}
