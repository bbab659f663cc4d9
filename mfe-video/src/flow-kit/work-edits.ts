import {
  getWorkInfo,
  idempotencyKeyFor,
  saveText,
  saveVideoInfo,
  updateText,
  type ProjectType,
  type Shot,
  type VideoSettings,
  type WorkDetail,
} from '@kol/shared-sdk';
import type { RevisionedEdit } from '@kol/shared-sdk/ui';

/**
 * How the video pages save what a person edited on a work. Every save names the revision the
 * page's data was loaded at (or the one its previous save answered), never one read just before
 * saving: that would write over another tab's change unseen. When the work moved on meanwhile
 * (another tab, a picture the server drew), the SDK's `saveOnRevision` merges the person's edit
 * into the newest work, and `useRevisionedSave` asks them when both changed the same part.
 */

/**
 * A save of an edit on a revision: `useRevisionedSave()` (asks the person on a real conflict,
 * answers null when they load the newest instead), or the SDK's `saveOnRevision` outside React.
 */
export type SaveEdit = <T, R>(edit: RevisionedEdit<T, R>) => Promise<R | null>;

/** The `load` of an edit of a work: the work read again, the same parts picked, its revision. */
export function loadWork<T>(workId: number, pick: (work: WorkDetail) => T) {
  return async () => {
    const work = await getWorkInfo({ workId });
    return { value: pick(work), revision: work.revision };
  };
}

/** What `update_text` edits of a work. */
export interface TextParts {
  title?: string;
  text?: string;
  shots?: Shot[];
}

/**
 * Saves edited text parts (`update_text`) based on `base` at `revision`; `pick` takes the same
 * parts from a newer work. Answers the saved work, or null when the person chose the newest.
 */
export function saveTextEdit<T extends TextParts>(
  saveEdit: SaveEdit,
  workId: number,
  edit: { base: T; edited: T; revision: number; pick: (work: WorkDetail) => T },
): Promise<WorkDetail | null> {
  return saveEdit<T, WorkDetail>({
    base: edit.base,
    edited: edit.edited,
    revision: edit.revision,
    save: (value, revision) => updateText({ workId, revision, ...value }),
    load: loadWork(workId, edit.pick),
  });
}

/**
 * A flow's work as the flow last loaded or saved it: what its next save is based on. The flows
 * that keep a draft in the session keep this with it (`saved`), so a reload still saves on the
 * revision the draft was based on. `settings` are the keys the flow edits (the server merges a
 * save's settings over the stored ones key by key).
 */
export interface SavedWork {
  workId: number;
  revision: number;
  type: number;
  title: string;
  text: string;
  settings: Partial<VideoSettings>;
}

/** A draft kept in the session with the work it was last saved as (see SavedWork). */
export type WithSaved<Draft> = Draft & { saved?: SavedWork };

/** What a flow saves onto its work: the type and title and text, and its settings. */
export interface WorkParts {
  type?: ProjectType;
  title?: string;
  text?: string;
  settings?: VideoSettings;
}

/** Only the settings keys given (the ones a flow edits), so other writers' keys never conflict. */
function settingsKeys(settings: Partial<VideoSettings>, keys: readonly string[]): VideoSettings {
  const all = settings as Record<string, unknown>;
  return Object.fromEntries(
    keys.filter((key) => all[key] !== undefined).map((key) => [key, all[key]]),
  ) as VideoSettings;
}

/** The parts of a saved or loaded work that an edit changes, shaped as the edit is. */
function partsOf(work: Omit<SavedWork, 'workId' | 'revision'>, edited: WorkParts, keys: string[]) {
  const parts: WorkParts = {};
  if (edited.type !== undefined) parts.type = work.type as ProjectType;
  if (edited.title !== undefined) parts.title = work.title;
  if (edited.text !== undefined) parts.text = work.text;
  if (edited.settings !== undefined) parts.settings = settingsKeys(work.settings, keys);
  return parts;
}

/** The work a flow has loaded, as its next save's base. */
export function savedWorkOf(work: WorkDetail): SavedWork {
  const { workId, revision, type, title, text, settings } = work;
  return { workId, revision, type, title, text, settings };
}

/**
 * Makes a flow's work: `save_text` (a new work answers revision 1), then its settings on that
 * revision (`save_video_info`). Answers the work as saved. `createKey` is a page's own key of
 * this action, kept in its KOL_ session state until the work exists: the work is asked for
 * under `idempotencyKeyFor(createKey, body)`, so a try again after a lost answer, even after a
 * reload, gets the same work back (another text or title is another action). Without it the SDK
 * keys the call itself (a repeat within a few seconds gets the same work).
 */
export async function createWork(
  parts: {
    type: ProjectType;
    title: string;
    text: string;
    settings?: VideoSettings;
  },
  options: { createKey?: string } = {},
): Promise<SavedWork> {
  const { type, title, text } = parts;
  const body = { type, title, text };
  const made = await saveText(
    body,
    options.createKey ? { idempotencyKey: idempotencyKeyFor(options.createKey, body) } : undefined,
  );
  let { revision } = made;
  if (parts.settings) {
    ({ revision } = await saveVideoInfo({
      workId: made.workId,
      revision,
      settings: parts.settings,
    }));
  }
  return { workId: made.workId, revision, type, title, text, settings: parts.settings ?? {} };
}

/**
 * Saves a flow's edit of its work on the revision it last loaded or saved it at: the title and
 * text (`save_text` when the type goes too, else `update_text`), then the settings
 * (`save_video_info`) on the revision that answered. A newer change is merged in as
 * `saveOnRevision` does, the person asked when both changed the same part. Answers the work as
 * now saved, or null when the person chose to load the newest instead.
 */
export async function saveWorkEdit(
  saveEdit: SaveEdit,
  saved: SavedWork,
  edited: WorkParts,
): Promise<SavedWork | null> {
  const { workId } = saved;
  const keys = Object.keys(edited.settings ?? {});
  const done = await saveEdit<WorkParts, { value: WorkParts; revision: number }>({
    base: partsOf(saved, edited, keys),
    edited,
    revision: saved.revision,
    save: async (value, revision) => {
      let next = revision;
      if (value.type !== undefined && value.title !== undefined && value.text !== undefined) {
        const { type, title, text } = value;
        ({ revision: next } = await saveText({ workId, revision: next, type, title, text }));
      } else if (value.title !== undefined || value.text !== undefined) {
        const { title, text } = value;
        ({ revision: next } = await updateText({
          workId,
          revision: next,
          ...(title !== undefined ? { title } : {}),
          ...(text !== undefined ? { text } : {}),
        }));
      }
      if (value.settings !== undefined) {
        ({ revision: next } = await saveVideoInfo({
          workId,
          revision: next,
          settings: value.settings,
        }));
      }
      return { value, revision: next };
    },
    load: loadWork(workId, (work) => partsOf(work, edited, keys)),
  });
  if (!done) return null;
  const { value, revision } = done;
  return {
    workId,
    revision,
    type: value.type ?? saved.type,
    title: value.title ?? saved.title,
    text: value.text ?? saved.text,
    settings: value.settings ? { ...saved.settings, ...value.settings } : saved.settings,
  };
}

/**
 * Runs saves one after another: an autosave started while the previous one is still answering
 * would be based on the revision that one is moving on, and be refused as stale by its own page.
 */
export function serialQueue() {
  let last: Promise<unknown> = Promise.resolve();
  return <R>(run: () => Promise<R>): Promise<R> => {
    const next = last.then(run, run);
    last = next.catch(() => undefined);
    return next;
  };
}
