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

/**
 * What is wrong with `folder` as a drafts folder, in Chinese, or null when the server takes it
 * (empty too: not set). The user centre's form and the 剪映 export's dialog say the same words.
 */
export function draftFolderProblem(folder: string): string | null {
  if (folder.length > DRAFT_FOLDER_MAX_LENGTH) {
    return `文件夹路径不能超过 ${DRAFT_FOLDER_MAX_LENGTH} 个字符`;
  }
  if (!isDraftFolder(folder)) {
    return '请填写完整的文件夹路径：Windows 以盘符开头（如 D:\\），macOS 以 / 开头';
  }
  return null;
}
