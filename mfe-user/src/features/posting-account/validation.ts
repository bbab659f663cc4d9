import type { FormRule } from 'antd';

/**
 * Mirrors `HomePageUrlField` of the server's contract (shared-sdk `contracts/user.ts`): an
 * http(s) address without spaces, at most 500 characters. The server also accepts empty, but
 * this form exists to fill the account in (an empty one brings the shell's prompt straight
 * back), so here it is required.
 */
export const HOME_PAGE_URL_MAX_LENGTH = 500;
export const HOME_PAGE_URL_PATTERN = /^https?:\/\/\S+$/;

export const homePageUrlRules: FormRule[] = [
  { required: true, message: '请填写发布账号主页' },
  {
    pattern: HOME_PAGE_URL_PATTERN,
    message: '请输入以 http:// 或 https:// 开头的有效网址',
  },
  { max: HOME_PAGE_URL_MAX_LENGTH, message: `网址不能超过 ${HOME_PAGE_URL_MAX_LENGTH} 个字符` },
];
