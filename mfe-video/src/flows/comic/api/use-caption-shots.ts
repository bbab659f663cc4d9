import { useEffect, useState } from 'react';
import { replaceWord } from '../../../flow-kit/flagged-words/flagged-words';
import type { ComicFlowStore } from '../comic-flow';
import { cleanCaption, splitIntoShots, textOfShots } from '../shots';
import { captionsToSrt, srtToCaptions } from '../srt';

interface Row {
  key: number;
  caption: string;
}

/** React keys of the shot rows: a shot keeps its key (and its text box) when others move. */
let nextKey = 0;
const row = (caption: string): Row => ({ key: nextKey++, caption });

/** The remembered shots when they are still the shots of the remembered text, else a new split. */
function initialCaptions(store: ComicFlowStore): string[] {
  const text = store.text();
  const srt = store.srt();
  const remembered = srt ? srtToCaptions(srt) : [];
  if (remembered.length > 0 && textOfShots(remembered) === text) return remembered;
  return splitIntoShots(text);
}

/** A Latin caption joins the next with a space; Chinese ones join directly. */
function joinCaptions(first: string, second: string): string {
  return /[A-Za-z0-9.,!?;:'"]$/.test(first) && /^[A-Za-z0-9"']/.test(second)
    ? `${first} ${second}`
    : `${first}${second}`;
}

/**
 * The caption page's shots, one caption each. Every change is written to the session at once:
 * the shots as `KOL_SRT_CONTENT` and their text as the flow's video content, so a reload keeps
 * them and the earlier step shows the same text.
 */
export function useCaptionShots(store: ComicFlowStore, voice: { voiceId: string; speed: number }) {
  const [rows, setRows] = useState<Row[]>(() => initialCaptions(store).map(row));
  const captions = rows.map((row) => row.caption);
  const { voiceId, speed } = voice;

  useEffect(() => {
    const list = rows.map((row) => row.caption);
    store.setSrt(captionsToSrt(list, { voiceId, speed }));
    store.setText(textOfShots(list));
  }, [rows, voiceId, speed, store]);

  const update = (change: (rows: Row[]) => Row[]) => setRows((current) => change([...current]));

  return {
    captions,
    keys: rows.map((item) => item.key),
    edit: (index: number, caption: string) =>
      update((list) =>
        list.map((item, i) => (i === index ? { ...item, caption: cleanCaption(caption) } : item)),
      ),
    mergeWithNext: (index: number) =>
      update((list) => {
        const first = list[index];
        const second = list[index + 1];
        if (!first || !second) return list;
        list.splice(index, 2, { ...first, caption: joinCaptions(first.caption, second.caption) });
        return list;
      }),
    /** Splits at a character position; false when either side would be empty. */
    splitAt: (index: number, at: number): boolean => {
      const caption = captions[index] ?? '';
      const head = caption.slice(0, at).trim();
      const tail = caption.slice(at).trim();
      if (!head || !tail) return false;
      update((list) => {
        list.splice(index, 1, { ...(list[index] as Row), caption: head }, row(tail));
        return list;
      });
      return true;
    },
    move: (index: number, by: -1 | 1) =>
      update((list) => {
        const target = index + by;
        if (target < 0 || target >= list.length) return list;
        const [moved] = list.splice(index, 1);
        if (moved) list.splice(target, 0, moved);
        return list;
      }),
    remove: (index: number) => update((list) => list.filter((_, i) => i !== index)),
    replace: (word: string, replacement: string) =>
      update((list) =>
        list.map((item) => ({ ...item, caption: replaceWord(item.caption, word, replacement) })),
      ),
    /** These captions instead (the work's as saved elsewhere, when the person takes them). */
    reset: (list: readonly string[]) => setRows(list.map(row)),
    /** Back to the automatic split of the current text (the server's own). */
    resplit: () => setRows(splitIntoShots(textOfShots(captions)).map(row)),
  };
}

/** Longest caption a shot takes (the contract's `分镜文案`). */
export const MAX_CAPTION_CHARS = 2000;
/** Most shots a work takes (the contract's `分镜`). */
export const MAX_SHOTS = 500;

/** Why the shots cannot be saved, in Chinese, or null. */
export function captionsProblem(captions: readonly string[]): string | null {
  if (captions.length === 0) return '至少需要一个分镜，请回到上一步填写文案';
  if (captions.length > MAX_SHOTS)
    return `分镜不能超过 ${MAX_SHOTS} 个（当前 ${captions.length} 个）`;
  const empty = captions.findIndex((caption) => !caption.trim());
  if (empty !== -1) return `第 ${empty + 1} 个分镜的字幕为空，请填写或删除这个分镜`;
  const long = captions.findIndex((caption) => caption.length > MAX_CAPTION_CHARS);
  if (long !== -1) return `第 ${long + 1} 个分镜的字幕不能超过 ${MAX_CAPTION_CHARS} 字`;
  return null;
}
