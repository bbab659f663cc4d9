/**
 * The user's 剪映 drafts folder (`draftPath` of the user's info): where 剪映 (JianYing; CapCut
 * abroad) keeps its drafts on the creator's own computer. The draft export writes its media paths
 * for this folder, so only an absolute folder is taken: `C:\…` or `D:/…` on Windows, `/Users/…`
 * on macOS; empty means not set. One line, at most 500 characters. The server's contract
 * (`contracts/user.ts`) and the user centre's form both check it with this pattern.
 */
export const DRAFT_FOLDER_PATTERN = '^(|[A-Za-z]:[\\\\/][^\\n\\r\\t]*|/[^\\n\\r\\t]*)$';
export const DRAFT_FOLDER_MAX_LENGTH = 500;

/** Where 剪映 keeps its drafts when nobody moved them, shown as examples. */
export const DEFAULT_DRAFT_FOLDERS = {
  windows:
    'C:\\Users\\你的用户名\\AppData\\Local\\JianyingPro\\User Data\\Projects\\com.lveditor.draft',
  macos: '/Users/你的用户名/Movies/JianyingPro/User Data/Projects/com.lveditor.draft',
} as const;

/** Whether `folder` is a drafts folder the server takes (empty: not set). */
export function isDraftFolder(folder: string): boolean {
  return folder.length <= DRAFT_FOLDER_MAX_LENGTH && new RegExp(DRAFT_FOLDER_PATTERN).test(folder);
}
