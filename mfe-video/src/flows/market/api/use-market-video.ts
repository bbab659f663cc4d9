import { useState } from 'react';
import { App } from 'antd';
import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  getTemplates,
  getWorkInfo,
  uploadImage,
  type VideoTemplate,
  type WorkDetail,
  errorMessage,
} from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { useSavedWork } from '../../../flow-kit/use-saved-work';
import { createWork, saveWorkEdit, savedWorkOf } from '../../../flow-kit/work-edits';
import { useListStatus } from '../../../hooks/use-list-status';
import { useWorkSaved } from '../../../hooks/work-queries';
import {
  DEFAULT_MARKET_SETTINGS,
  MARKET_TYPE,
  MAX_MARKET_PICTURES,
  marketStore,
  missingFieldsProblem,
  productNameOf,
  type KeptMarketDraft,
  type MarketSettings,
} from '../market-flow';
import { pictureProblem } from '../picture-file';

export interface PictureUpload {
  name: string;
  percent: number;
}

/** The draft of this work from the session, or a new one (a new video keeps the settings). */
function initialDraft(workId: number | null): KeptMarketDraft | null {
  const stored = marketStore.draft();
  if (workId === null) {
    if (stored && stored.workId === null) return stored;
    return { workId: null, settings: { ...DEFAULT_MARKET_SETTINGS } };
  }
  return stored && stored.workId === workId ? stored : null;
}

/** What the page holds of a saved marketing video: its draft, template and fields. */
interface MarketState {
  draft: KeptMarketDraft;
  templateId: number | null;
  fields: Record<string, string>;
}

/** A work read from the server as the page's state. */
function marketStateOf(work: WorkDetail): MarketState {
  const s = work.settings;
  const draft: KeptMarketDraft = {
    workId: work.workId,
    settings: {
      ...DEFAULT_MARKET_SETTINGS,
      aspect: s.aspect,
      imageUrls: s.imageUrls ?? [],
      ...(s.voiceId !== undefined ? { voiceId: s.voiceId } : {}),
      ...(s.speed !== undefined ? { speed: s.speed } : {}),
      ...(s.musicId !== undefined ? { musicId: s.musicId } : {}),
      ...(s.callToAction !== undefined ? { callToAction: s.callToAction } : {}),
    },
    saved: savedWorkOf(work),
  };
  return { draft, templateId: s.templateId ?? null, fields: s.templateFields ?? {} };
}

/** Writes a work's state to the session (its template only when it has one). */
function keepMarketState(state: MarketState) {
  if (state.templateId !== null) marketStore.setTemplateId(state.templateId);
  marketStore.setFields(state.fields);
  marketStore.setDraft(state.draft);
}

/** The query key of the marketing templates: one list for every page that offers them. */
export const VIDEO_TEMPLATES_KEY = ['video-templates'] as const;

/**
 * A saved marketing video opened from its work (`work_info`), kept in the session as soon as it
 * is read. Read once per arrival and never again by itself (`staleTime: Infinity`,
 * `gcTime: 0`), and never kept over a draft of the work the session already holds (were it read
 * again, by an invalidation of everything): the work would replace what the person is editing.
 */
function marketWorkQuery(workId: number) {
  return queryOptions({
    queryKey: ['market-draft', workId] as const,
    queryFn: async ({ signal }) => {
      const state = marketStateOf(await getWorkInfo({ workId }, { signal }));
      if (!initialDraft(workId)) keepMarketState(state);
      return state;
    },
    staleTime: Infinity,
    gcTime: 0,
  });
}

/**
 * The marketing video's state across its steps: the templates (`get_templates`), the one chosen
 * and its fields, the pictures (uploaded one by one with progress), voice, music and call to
 * action. Each change is written to the session at once; a work in the address that the session
 * does not hold (a fresh tab) is read back from the server (`work_info`).
 */
export function useMarketVideo(workId: number | null) {
  const { message } = App.useApp();
  const templatesQuery = useQuery({
    queryKey: VIDEO_TEMPLATES_KEY,
    queryFn: ({ signal }) => getTemplates({ signal }),
  });
  const templates: VideoTemplate[] | null = templatesQuery.data ?? null;
  const { error: templatesError } = useListStatus(templatesQuery);
  const [draft, setDraft] = useState<KeptMarketDraft | null>(() => initialDraft(workId));
  const revisionedSave = useRevisionedSave();
  const savedWork = useSavedWork(draft?.workId ?? null, draft?.saved);
  const workSaved = useWorkSaved();
  const [templateId, setTemplateId] = useState<number | null>(() => marketStore.templateId());
  const [fields, setFields] = useState<Record<string, string>>(() => marketStore.fields());
  const [uploads, setUploads] = useState<PictureUpload[]>([]);
  const [saving, setSaving] = useState(false);

  /** A work's state (already in the session) becomes the page's. */
  const take = (state: MarketState) => {
    if (state.templateId !== null) setTemplateId(state.templateId);
    setFields(state.fields);
    setDraft(state.draft);
  };

  // Which work's state came from the read below. Its query then stays on: it is never read
  // again by itself, and turning it off would only render the page once more.
  const [openedFor, setOpenedFor] = useState<number | null>(null);
  const opened = useQuery({
    ...marketWorkQuery(workId ?? 0),
    enabled: workId !== null && (draft === null || openedFor === workId),
  });
  // The work as read becomes the page's state.
  if (draft === null && opened.data && opened.data.draft.workId === workId) {
    setOpenedFor(workId);
    take(opened.data);
  }
  const loadError = opened.error ? errorMessage(opened.error) : null;

  const template = templates?.find((t) => t.id === templateId) ?? null;
  const settings = draft?.settings ?? DEFAULT_MARKET_SETTINGS;
  const pictures = settings.imageUrls ?? [];

  const changeSettings = (patch: Partial<MarketSettings>) =>
    setDraft((current) => {
      if (!current) return current;
      const next = { ...current, settings: { ...current.settings, ...patch } };
      marketStore.setDraft(next);
      return next;
    });

  const chooseTemplate = (id: number) => {
    setTemplateId(id);
    marketStore.setTemplateId(id);
  };

  const changeField = (key: string, value: string) =>
    setFields((current) => {
      const next = { ...current, [key]: value };
      marketStore.setFields(next);
      return next;
    });

  const setPictures = (update: (urls: string[]) => string[]) =>
    setDraft((current) => {
      if (!current) return current;
      const urls = update(current.settings.imageUrls ?? []);
      const next = { ...current, settings: { ...current.settings, imageUrls: urls } };
      marketStore.setDraft(next);
      return next;
    });

  /** Checks each file, then sends the good ones one after another, in the order chosen. */
  const addPictures = async (files: File[]) => {
    let room = MAX_MARKET_PICTURES - pictures.length;
    for (const file of files) {
      const problem = pictureProblem(file);
      if (problem) {
        void message.error(problem);
        continue;
      }
      if (room <= 0) {
        void message.error(`最多 ${MAX_MARKET_PICTURES} 张图片，「${file.name}」未添加`);
        continue;
      }
      room -= 1;
      setUploads((list) => [...list, { name: file.name, percent: 0 }]);
      try {
        const { url } = await uploadImage(file, file.name, {
          onUploadProgress: (percent) =>
            setUploads((list) => list.map((u) => (u.name === file.name ? { ...u, percent } : u))),
        });
        setPictures((urls) => [...urls, url]);
      } catch (error) {
        room += 1;
        void message.error(`「${file.name}」上传失败：${errorMessage(error)}`);
      } finally {
        setUploads((list) => list.filter((u) => u.name !== file.name));
      }
    }
  };

  const movePicture = (index: number, by: -1 | 1) =>
    setPictures((urls) => {
      const target = index + by;
      if (target < 0 || target >= urls.length) return urls;
      const next = [...urls];
      [next[index], next[target]] = [next[target] as string, next[index] as string];
      return next;
    });

  const removePicture = (index: number) =>
    setPictures((urls) => urls.filter((_, i) => i !== index));

  /** Why the video cannot be made yet (no template, a required field empty), or null. */
  const problem = (): string | null => {
    if (!template) return '请先选择营销模板';
    return missingFieldsProblem(template, fields);
  };

  /** Whether the video can be made; false after saying why not. Makes nothing. */
  const check = async (): Promise<boolean> => {
    const found = problem();
    if (found) void message.error(found);
    return found === null && draft !== null;
  };

  /**
   * Saves everything onto the work and answers its id: made on the first save (on 确认生成, so
   * nothing is made before the creator commits), saved over after on the revision the draft was
   * read or last saved at. Answers null when the person chose the newest work instead (it then
   * replaces this page's choices); a failure rejects. The work's text is left empty on purpose:
   * the server speaks the work's own text when it has one, else the template's script from the
   * fields.
   */
  const save = async (): Promise<number | null> => {
    const found = problem();
    if (found || !template || !draft) throw new Error(found ?? '作品还在读取，请稍候再试');
    const over = draft.workId !== null ? await savedWork.base() : null;
    if (draft.workId !== null && !over) throw new Error(savedWork.problem());
    setSaving(true);
    let base = over;
    try {
      const title = productNameOf(template, fields).slice(0, 100);
      if (!base) {
        // save_text takes no empty text: the work is made with its title, then emptied. It is
        // kept at once, so a failure of the calls below saves over it rather than making another.
        base = await createWork({ type: MARKET_TYPE, title, text: title });
        const made = { ...draft, workId: base.workId, saved: base };
        marketStore.setDraft(made);
        setDraft(made);
      }
      const saved = await saveWorkEdit(revisionedSave, base, {
        title,
        text: '',
        settings: { ...settings, templateId: template.id, templateFields: fields },
      });
      if (!saved) {
        // The person chose the work as saved elsewhere: it replaces this page's choices.
        const newest = await savedWork.takeNewest();
        if (newest) {
          const state = marketStateOf(newest);
          keepMarketState(state);
          take(state);
        }
        return null;
      }
      // Kept with the draft: the next save, after a reload too, is based on this revision.
      const next = { ...draft, workId: saved.workId, saved };
      marketStore.setDraft(next);
      setDraft(next);
      return saved.workId;
    } finally {
      setSaving(false);
      // Made or saved over, even when a later call failed: what shows it reads it again.
      if (base) workSaved(base.workId);
    }
  };

  return {
    templates,
    templatesError,
    template,
    chooseTemplate,
    fields,
    changeField,
    draft,
    loadError,
    settings,
    changeSettings,
    pictures,
    uploads,
    addPictures,
    movePicture,
    removePicture,
    problem,
    saving,
    check,
    save,
  };
}
