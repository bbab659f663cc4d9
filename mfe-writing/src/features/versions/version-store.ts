import { storageKey, type WritingMode } from '@kol/shared-sdk';

/** One kept text of the creative writing desk. */
export interface WritingVersion {
  id: string;
  /** The mode that wrote it, or `edit` for the user's own text kept before a new run. */
  source: WritingMode | 'edit';
  text: string;
  createdAt: string;
}

/** At most this many versions are kept; the oldest go first. */
export const MAX_VERSIONS = 30;

/** `KOL_WRITING_VERSIONS` in local storage, JSON, newest first. */
export const VERSIONS_KEY = storageKey('writingVersions');

export function readVersions(): WritingVersion[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(VERSIONS_KEY) ?? '[]');
    return Array.isArray(value) ? (value as WritingVersion[]) : [];
  } catch {
    return [];
  }
}

export function writeVersions(versions: WritingVersion[]): void {
  localStorage.setItem(VERSIONS_KEY, JSON.stringify(versions.slice(0, MAX_VERSIONS)));
}

/** The list with `text` added on top, unless it equals the newest version already. */
export function withVersion(
  versions: WritingVersion[],
  source: WritingVersion['source'],
  text: string,
): WritingVersion[] {
  if (!text.trim() || versions[0]?.text === text) return versions;
  const version: WritingVersion = {
    id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    source,
    text,
    createdAt: new Date().toISOString(),
  };
  return [version, ...versions].slice(0, MAX_VERSIONS);
}
