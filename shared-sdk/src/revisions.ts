import { ErrorCode } from './error-codes';

/**
 * Saves of edited records (works, cut videos, roles, dedup presets) name the revision they were
 * based on; the server refuses a save based on an older one (412) rather than apply it over
 * newer work. This file is what a page does then, written once and framework-free: merge the
 * person's edit into the newest record when the two changed different things, and otherwise
 * hand the choice to the person, never dropping what they typed.
 */

/** The message a page shows when the person's edit and another change touched the same part. */
export const STALE_EDIT_MESSAGE = '该内容已在其他页面修改，请刷新后再编辑';

/**
 * True when a call failed because the record changed since the revision it was based on. Read
 * by its code, not by `instanceof`: an app's bundled copy of this module (the ui entry is not a
 * shared module) sees errors thrown by the shared SDK's client, whose ApiError is another class.
 */
export function isStaleRevision(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'ApiError' &&
    (error as { code?: unknown }).code === ErrorCode.staleRevision
  );
}

type Json = unknown;

function same(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => same(item, b[i]));
  }
  const ak = Object.keys(a as object).filter((k) => (a as Record<string, Json>)[k] !== undefined);
  const bk = Object.keys(b as object).filter((k) => (b as Record<string, Json>)[k] !== undefined);
  return (
    ak.length === bk.length &&
    ak.every((k) => same((a as Record<string, Json>)[k], (b as Record<string, Json>)[k]))
  );
}

const isRecord = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface MergedEdit<T> {
  /** The newest record with the person's changes on top; theirs where both changed a part. */
  value: T;
  /** Where both changed the same part differently ('shots.2.caption'); empty: a clean merge. */
  conflicts: string[];
}

/**
 * A three-way merge of JSON values: what the edit started from (`base`), the person's edit
 * (`edited`) and the newest record (`latest`). A part only one side changed takes that side;
 * objects merge key by key and arrays of one length item by item (a shot's prompt edited here
 * and its picture drawn by the server both survive); a part both changed differently is a
 * conflict, resolved to the person's version so nothing they typed is lost.
 */
export function mergeEdits<T>(base: T, edited: T, latest: T): MergedEdit<T> {
  const conflicts: string[] = [];
  const walk = (b: Json, e: Json, l: Json, path: string): Json => {
    if (same(e, b)) return l;
    if (same(l, b) || same(l, e)) return e;
    if (isRecord(b) && isRecord(e) && isRecord(l)) {
      const out: Record<string, Json> = {};
      for (const key of new Set([...Object.keys(l), ...Object.keys(e), ...Object.keys(b)])) {
        const value = walk(b[key], e[key], l[key], path ? `${path}.${key}` : key);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    if (
      Array.isArray(b) &&
      Array.isArray(e) &&
      Array.isArray(l) &&
      b.length === e.length &&
      b.length === l.length
    ) {
      return b.map((item, i) => walk(item, e[i], l[i], path ? `${path}.${i}` : String(i)));
    }
    conflicts.push(path);
    return e;
  };
  return { value: walk(base, edited, latest, '') as T, conflicts };
}

/** Thrown by `saveOnRevision` when the edit and a newer change touched the same part. */
export class StaleEditError<T> extends Error {
  constructor(
    /** The newest record with the person's edit on top (theirs where both changed a part). */
    readonly merged: T,
    /** The newest revision, to save `merged` on when the person keeps their edit. */
    readonly revision: number,
    readonly conflicts: string[],
  ) {
    super(STALE_EDIT_MESSAGE);
    this.name = 'StaleEditError';
  }
}

/** By name as well as class, for the same reason as isStaleRevision. */
export function isStaleEdit<T = unknown>(error: unknown): error is StaleEditError<T> {
  return (
    error instanceof StaleEditError || (error instanceof Error && error.name === 'StaleEditError')
  );
}

/**
 * Saves an edit on the revision it was based on. When the record changed meanwhile, the newest
 * one is loaded and the edit merged into it: saved on the newest revision when the two changed
 * different parts, else a `StaleEditError` carrying the merge for the page to offer (reload, or
 * keep the person's edit with `save(error.merged, error.revision)`).
 */
export async function saveOnRevision<T, R>(edit: {
  /** The saved parts as the edit started (what the page loaded). */
  base: T;
  /** The same parts as the person has them now. */
  edited: T;
  revision: number;
  save: (value: T, revision: number) => Promise<R>;
  /** The same parts of the newest record, and its revision. */
  load: () => Promise<{ value: T; revision: number }>;
}): Promise<R> {
  let { base, revision } = edit;
  let value = edit.edited;
  // A few rounds: a writer of the server's (pictures drawn one after another) may move the
  // record again between the load and the save.
  for (let round = 0; ; round += 1) {
    try {
      return await edit.save(value, revision);
    } catch (error) {
      if (!isStaleRevision(error) || round >= 4) throw error;
    }
    const latest = await edit.load();
    const merged = mergeEdits(base, value, latest.value);
    if (merged.conflicts.length > 0)
      throw new StaleEditError(merged.value, latest.revision, merged.conflicts);
    base = latest.value;
    value = merged.value;
    revision = latest.revision;
  }
}
