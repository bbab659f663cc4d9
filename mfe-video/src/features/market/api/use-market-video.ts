import { useEffect, useState } from 'react';
import { App } from 'antd';
import {
  getTemplates,
  getWorkInfo,
  saveText,
  saveVideoInfo,
  updateText,
  uploadImage,
  type MarketDraft,
  type VideoTemplate,
  errorMessage,
} from '@kol/shared-sdk';
import {
  DEFAULT_MARKET_SETTINGS,
  MARKET_TYPE,
  MAX_MARKET_PICTURES,
  marketStore,
  missingFieldsProblem,
  productNameOf,
  type MarketSettings,
} from '../../../lib/market-flow';
import { pictureProblem } from '../picture-file';

export interface PictureUpload {
  name: string;
  percent: number;
}

/** The draft of this work from the session, or a new one (a new video keeps the settings). */
function initialDraft(workId: number | null): MarketDraft | null {
  const stored = marketStore.draft();
  if (workId === null) {
    if (stored && stored.workId === null) return stored;
    return { workId: null, settings: { ...DEFAULT_MARKET_SETTINGS } };
  }
  return stored && stored.workId === workId ? stored : null;
}

/**
 * The marketing video's state across its steps: the templates (`get_templates`), the one chosen
 * and its fields, the pictures (uploaded one by one with progress), voice, music and call to
 * action. Each change is written to the session at once; a work in the address that the session
 * does not hold (a fresh tab) is read back from the server (`work_info`).
 */
export function useMarketVideo(workId: number | null) {
  const { message } = App.useApp();
  const [templates, setTemplates] = useState<VideoTemplate[] | null>(null);
  const [templatesError, setTemplatesError] = useState<string | null>(null);
  const [draft, setDraft] = useState<MarketDraft | null>(() => initialDraft(workId));
  const [templateId, setTemplateId] = useState<number | null>(() => marketStore.templateId());
  const [fields, setFields] = useState<Record<string, string>>(() => marketStore.fields());
  const [loadError, setLoadError] = useState<string | null>(null);
  const [uploads, setUploads] = useState<PictureUpload[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    getTemplates().then(
      (list) => live && setTemplates(list),
      (reason: unknown) => live && setTemplatesError(errorMessage(reason)),
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (draft !== null || workId === null) return;
    let live = true;
    getWorkInfo({ workId }).then(
      (work) => {
        if (!live) return;
        const s = work.settings;
        const read: MarketDraft = {
          workId,
          settings: {
            ...DEFAULT_MARKET_SETTINGS,
            aspect: s.aspect,
            imageUrls: s.imageUrls ?? [],
            ...(s.voiceId !== undefined ? { voiceId: s.voiceId } : {}),
            ...(s.speed !== undefined ? { speed: s.speed } : {}),
            ...(s.musicId !== undefined ? { musicId: s.musicId } : {}),
            ...(s.callToAction !== undefined ? { callToAction: s.callToAction } : {}),
          },
        };
        if (s.templateId !== undefined) {
          marketStore.setTemplateId(s.templateId);
          setTemplateId(s.templateId);
        }
        marketStore.setFields(s.templateFields ?? {});
        setFields(s.templateFields ?? {});
        marketStore.setDraft(read);
        setDraft(read);
      },
      (reason: unknown) => live && setLoadError(errorMessage(reason)),
    );
    return () => {
      live = false;
    };
  }, [draft, workId]);

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
   * Saves everything onto the work (made on the first save: on 确认生成, so nothing is made
   * before the creator commits) and answers its id; a failure rejects. The work's text is left
   * empty on purpose: the server speaks the work's own text when it has one, else the
   * template's script from the fields.
   */
  const save = async (): Promise<number> => {
    const found = problem();
    if (found || !template || !draft) throw new Error(found ?? '作品还在读取，请稍候再试');
    setSaving(true);
    try {
      const title = productNameOf(template, fields).slice(0, 100);
      let id = draft.workId;
      if (id === null) {
        // save_text takes no empty text: the work is made with its title, then emptied.
        ({ workId: id } = await saveText({ type: MARKET_TYPE, title, text: title }));
        // Remembered at once: a failure of the calls below must not make a second work.
        const made = { ...draft, workId: id };
        marketStore.setDraft(made);
        setDraft(made);
      }
      await updateText({ workId: id, title, text: '' });
      await saveVideoInfo({
        workId: id,
        settings: { ...settings, templateId: template.id, templateFields: fields },
      });
      return id;
    } finally {
      setSaving(false);
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
