import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import {
  adaptAnimeScript,
  saveText,
  type AnimeLength,
  type AnimeScript,
  errorMessage,
} from '@kol/shared-sdk';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import { useVideoHandover } from '../../../flow-kit/text-source/use-video-handover';
import { ANIME_TYPE, MAX_SOURCE_CHARS, animeStore } from '../anime-flow';
import { scriptText } from '../anime-script';

/** Why a story or idea cannot be adapted, in Chinese, or null when it can. */
export function sourceProblem(text: string): string | null {
  if (!text.trim()) return '请先填写故事或创意';
  if (text.length > MAX_SOURCE_CHARS) {
    return `故事或创意不能超过 ${MAX_SOURCE_CHARS} 字（当前 ${text.length} 字），请删减后再改编`;
  }
  if (!/[\p{L}\p{N}]/u.test(text)) return '故事或创意中没有文字，请填写内容';
  return null;
}

/** A title from the story when the creator gives none: its first line, at most 20 characters. */
function titleOf(text: string): string {
  const first = text.trim().split('\n')[0]?.trim() ?? '';
  return first.length > 20 ? `${first.slice(0, 20)}…` : first || '未命名漫剧';
}

interface InspirationInput {
  workId: number | null;
  /** Where to go once the script is saved onto the work. */
  onAdapted: (workId: number, script: AnimeScript) => void;
}

/**
 * The inspiration page's state: the story or idea (kept in `KOL_ORIGINAL_CONTENT` as typed, so
 * a reload or a failed adaptation loses nothing), and 改编, which has the server adapt it into a
 * script (`anime_script`: the chat model when configured, else the local rules) and saves that
 * script as the work's text (`save_text`, type 11): the work exists from here on.
 */
export function useAnimeInspiration({ workId, onAdapted }: InspirationInput) {
  const { message } = App.useApp();
  const client = useQueryClient();
  // 发送到视频's text and title (a new work only) become the story and the work's title.
  const handover = useVideoHandover(ANIME_TYPE, workId);
  const [source, setSourceState] = useState(() => {
    if (handover) animeStore.setSource(handover.text);
    return animeStore.source();
  });
  const [title, setTitle] = useState(handover?.title ?? '');
  const [problem, setProblem] = useState<string | null>(null);

  const setSource = (text: string) => {
    setSourceState(text);
    animeStore.setSource(text);
    if (problem) setProblem(sourceProblem(text));
  };

  // Once at a time: a double click adapts (and saves) once.
  const single = useSingleFlight(async (genre: string | undefined, length: AnimeLength) => {
    const found = sourceProblem(source);
    setProblem(found);
    if (found) {
      void message.error(found);
      return false;
    }
    try {
      const script = await adaptAnimeScript({
        text: source.trim(),
        length,
        ...(genre ? { genre } : {}),
      });
      const saved = await saveText({
        ...(workId !== null ? { workId } : {}),
        type: ANIME_TYPE,
        title: title.trim() || titleOf(source),
        text: scriptText(script.lines),
      });
      // A work adapted again has a new script: a copy of it in the cache is out of date.
      void client.invalidateQueries({ queryKey: ['work', saved.workId] });
      onAdapted(saved.workId, script);
      return true;
    } catch (error) {
      void message.error(`改编失败：${errorMessage(error)}`);
      return false;
    }
  });
  /** Adapts and saves; answers false when it did not (the user has been told why, or it runs). */
  const adapt = async (genre: string | undefined, length: AnimeLength): Promise<boolean> =>
    (await single.run(genre, length)) ?? false;

  return {
    handedOver: handover !== null,
    source,
    setSource,
    title,
    setTitle,
    problem,
    adapting: single.busy,
    adapt,
  };
}
