import { createHash } from 'node:crypto';
import type { FailureEvidence } from '../repositories/releases';

/** The actor of the server's own rollbacks, in the activation history and the audit log. */
export const AUTO_ROLLBACK_ACTOR = 'auto-rollback';

/**
 * Whether a signed-in user gets a remote's canary: a hash of user id, remote and version put in
 * one of 100 buckets, the first `percent` of which get it. The same person gets the same answer
 * at every load (no state kept anywhere); another remote or another canary version picks other
 * people, so the same users are not always the ones trying new releases.
 */
export function inCanary(userId: number, remote: string, version: string, percent: number) {
  const digest = createHash('sha256').update(`${userId}\n${remote}\n${version}`).digest();
  return digest.readUInt32BE(0) % 100 < percent;
}

/** `10 分钟` / `45 秒`: a window as ops read it in a note. */
export function windowText(windowMs: number): string {
  return windowMs % 60_000 === 0
    ? `${windowMs / 60_000} 分钟`
    : `${Math.round(windowMs / 1000)} 秒`;
}

/** What the files check found, as the note says it: a broken release is named as the cause. */
function filesText(files: FailureEvidence['files']): string {
  if (!files) return '';
  if (files.status === 'ok') return `；文件检查正常：${files.detail}`;
  if (files.status === 'unreadable') return `；文件检查未完成：${files.detail}`;
  return `；原因：版本文件损坏，${files.detail}`;
}

/**
 * The activation note of an automatic rollback: how many served users, of how many, in what
 * time, which error, and what the server found of the version's files.
 */
export function autoRollbackNote(
  version: string,
  evidence: FailureEvidence,
  windowMs: number,
): string {
  const top = evidence.errors[0];
  const error = top ? `：${top.phase} ${top.message.replace(/\s+/g, ' ').slice(0, 120)}` : '';
  const { users, servedUsers } = evidence;
  const share =
    servedUsers !== null && servedUsers > 0
      ? `（该时段获发此版本的 ${servedUsers} 位用户中的 ${Math.round((users.length * 100) / servedUsers)}%）`
      : '';
  return (
    `自动回滚：${users.length} 位登录用户在 ${windowText(windowMs)}内报告 ` +
    `${version} 加载失败${share}${error}${filesText(evidence.files)}`
  );
}
