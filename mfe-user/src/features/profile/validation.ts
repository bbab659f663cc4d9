import type { FormRule } from 'antd';

/**
 * The form's rules mirror the server's contract (shared-sdk `contracts/user.ts`,
 * `UpdateUserInfoBody`), so a value the form accepts is one the server accepts.
 */
export const NICKNAME_MAX_LENGTH = 32;

export const nicknameRules: FormRule[] = [
  { required: true, whitespace: true, message: '请输入昵称' },
  { max: NICKNAME_MAX_LENGTH, message: `昵称不能超过 ${NICKNAME_MAX_LENGTH} 个字符` },
];

/** Empty, or 11 digits starting with 1 (`PhoneField`). */
export const PHONE_PATTERN = /^(|1\d{10})$/;

export const phoneRules: FormRule[] = [
  { pattern: PHONE_PATTERN, message: '请输入以 1 开头的 11 位手机号，或留空' },
];
