import { useCallback, useEffect, useState } from 'react';
import { App } from 'antd';
import {
  genImg,
  getWorkInfo,
  updateText,
  type ImageResult,
  type WorkDetail,
  errorMessage,
} from '@kol/shared-sdk';
import { useImageTasks } from '../../../hooks/use-image-tasks';

/** A shot needs drawing when it has no picture, or its picture is the local stand-in. */
export const needsPicture = (shot: WorkDetail['shots'][number]) =>
  !shot.imageUrl || shot.needsRegeneration;

/**
 * The shots of a work with their picture prompts and pictures (`work_info`). Prompts are edited
 * here and saved onto the work (`update_text`); each picture is drawn with `gen_img` for its shot
 * and followed with `img_result`, and lands on the shot as it arrives.
 */
export function useShotPictures(workId: number) {
  const { message } = App.useApp();
  const [work, setWork] = useState<WorkDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [prompts, setPrompts] = useState<Record<number, string>>({});
  const [saving, setSaving] = useState(false);
  const [attempt, setAttempt] = useState(0);
  /** The provider's message of a shot whose picture fell back to the local frame. */
  const [notes, setNotes] = useState<Record<number, string>>({});

  useEffect(() => {
    let live = true;
    getWorkInfo({ workId }).then(
      (answer) => {
        if (!live) return;
        setWork(answer);
        setPrompts(Object.fromEntries(answer.shots.map((shot) => [shot.index, shot.imagePrompt])));
        setError(null);
      },
      (reason: unknown) => {
        if (live) setError(errorMessage(reason));
      },
    );
    return () => {
      live = false;
    };
  }, [workId, attempt]);

  const arrived = useCallback((key: string, result: ImageResult) => {
    const index = Number(key);
    if (result.state !== 'succeeded') return;
    const fellBack = result.error !== null;
    setNotes((current) => {
      const next = { ...current };
      if (fellBack) next[index] = result.error ?? '';
      else delete next[index];
      return next;
    });
    setWork(
      (current) =>
        current && {
          ...current,
          shots: current.shots.map((shot) =>
            shot.index === index
              ? { ...shot, imageUrl: result.imageUrl, needsRegeneration: fellBack }
              : shot,
          ),
        },
    );
  }, []);
  const images = useImageTasks(arrived);

  const dirty =
    work?.shots.some((shot) => (prompts[shot.index] ?? '') !== shot.imagePrompt) ?? false;

  /**
   * Saves the edited prompts onto the work. The shots are read again first: a picture drawn
   * meanwhile was written onto them by the server and must not be overwritten.
   */
  const savePrompts = useCallback(async (): Promise<boolean> => {
    if (!work || !dirty) return true;
    const empty = work.shots.find((shot) => !(prompts[shot.index] ?? '').trim());
    if (empty) {
      void message.error(`第 ${empty.index + 1} 个分镜的画面描述为空，请填写`);
      return false;
    }
    setSaving(true);
    try {
      const fresh = await getWorkInfo({ workId });
      const saved = await updateText({
        workId,
        shots: fresh.shots.map((shot) => ({
          ...shot,
          imagePrompt: prompts[shot.index] ?? shot.imagePrompt,
        })),
      });
      setWork(saved);
      return true;
    } catch (reason) {
      void message.error(`画面描述保存失败：${errorMessage(reason)}`);
      return false;
    } finally {
      setSaving(false);
    }
  }, [work, dirty, prompts, workId, message]);

  const draw = async (index: number) => {
    const prompt = (prompts[index] ?? '').trim();
    if (!prompt) {
      void message.error(`第 ${index + 1} 个分镜的画面描述为空，请填写`);
      return;
    }
    if (!(await savePrompts())) return;
    const styleId = work?.settings.imageStyleId;
    const started = await images.start(String(index), () =>
      genImg({
        workId,
        shotIndex: index,
        prompt,
        ...(styleId ? { imageStyleId: styleId } : {}),
      }),
    );
    if (!started) void message.error(`第 ${index + 1} 个分镜的画面没有开始绘制`);
  };

  const drawAll = async () => {
    const waiting = work?.shots.filter(needsPicture) ?? [];
    if (waiting.length === 0) {
      void message.info('所有分镜都已有画面，可以单独重新生成某一张');
      return;
    }
    if (!(await savePrompts())) return;
    for (const shot of waiting) await draw(shot.index);
  };

  return {
    work,
    error,
    reload: () => setAttempt((n) => n + 1),
    prompts,
    setPrompt: (index: number, prompt: string) =>
      setPrompts((current) => ({ ...current, [index]: prompt })),
    dirty,
    saving,
    savePrompts,
    draw,
    drawAll,
    drawing: images.pictures,
    notes,
  };
}
