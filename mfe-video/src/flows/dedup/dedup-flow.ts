import { ProjectType, type DedupPresets } from '@kol/shared-sdk';
import { dedupSession, type DedupEdit } from './draft';

/**
 * The de-dup settings page's state, kept in the session value `KOL_DEDUP_EDIT` so a reload
 * keeps the clip being previewed and the presets being edited; the saved presets live on the
 * server (`dedup_presets`), one set a user.
 */

/** The type the de-dup pages serve: the reverse video's (its presets, its works). */
export const CONVERT_TYPE = ProjectType.convert;

export function readDedupEdit(): DedupEdit {
  const stored = dedupSession.get('dedupEdit');
  return { clip: null, presets: null, aspect: '9:16', ...(stored ?? {}) };
}

export function writeDedupEdit(edit: DedupEdit): void {
  dedupSession.set('dedupEdit', edit);
}

/**
 * The presets being tried on one reverse video (`KOL_DEDUP_CLIP`), or null when the session
 * holds none for it: they reach the work only when it is rendered again, and a reload before
 * that keeps them. One work at a time: opening another one's page starts from its own.
 */
export function readDedupClip(workId: number): DedupPresets | null {
  const stored = dedupSession.get('dedupClip');
  return stored && stored.workId === workId && stored.presets && typeof stored.presets === 'object'
    ? stored.presets
    : null;
}

export function writeDedupClip(workId: number, presets: DedupPresets): void {
  dedupSession.set('dedupClip', { workId, presets });
}

export function forgetDedupClip(workId: number): void {
  if (dedupSession.get('dedupClip')?.workId === workId) dedupSession.remove('dedupClip');
}

/** Two preset sets mean the same (a key at its neutral value is the same as no key). */
export function samePresets(a: DedupPresets, b: DedupPresets): boolean {
  const neutral: Record<string, unknown> = {
    mirror: false,
    overlay: false,
    cropZoom: 0,
    speed: 1,
    colorShift: 0,
    frameRate: 30,
    trimHeadMs: 0,
    trimTailMs: 0,
  };
  const clean = (p: DedupPresets) =>
    Object.fromEntries(
      Object.entries(p)
        .filter(([key, value]) => value !== undefined && neutral[key] !== value)
        .sort(([x], [y]) => x.localeCompare(y)),
    );
  return JSON.stringify(clean(a)) === JSON.stringify(clean(b));
}
