import { useCallback, useState } from 'react';
import { useSetAtom } from 'jotai';
import { updateUserInfo, type UserInfo } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';

/**
 * Saves part of the user's info through `call` (`update_user_info` unless told otherwise, or
 * `update_user_draft`) and puts the server's answer in the host's `currentUserAtom`, so the shell
 * (its posting-account prompt, its header) sees the change at once. Rejects with the SDK's
 * ApiError; the caller tells the user and keeps what they typed.
 */
export function useSaveUserInfo<Body = Parameters<typeof updateUserInfo>[0]>(
  call: (body: Body) => Promise<UserInfo> = updateUserInfo as (body: Body) => Promise<UserInfo>,
) {
  const setCurrentUser = useSetAtom(currentUserAtom);
  const [saving, setSaving] = useState(false);

  const save = useCallback(
    async (changes: Body): Promise<UserInfo> => {
      setSaving(true);
      try {
        const user = await call(changes);
        setCurrentUser(user);
        return user;
      } finally {
        setSaving(false);
      }
    },
    [call, setCurrentUser],
  );

  return { save, saving };
}
