/**
 * Shots of a comic clip as the caption page edits them. The first split is the server's own
 * (the SDK's `text` module: sentences, and shots that never cut a quotation), so a creator who
 * changes nothing gets the shots the server would make; the shots saved with `update_text` are
 * the video's shots either way (the server speaks and draws them as saved).
 */
import { SENTENCE_PAUSE_MS, estimateNarrationMs } from '@kol/shared-sdk';

export { splitIntoShots, splitSentences } from '@kol/shared-sdk/text';

/**
 * The video's text from its shot captions: one caption a line, since a line end also ends a
 * sentence on the server (no punctuation has to be invented between two shots).
 */
export function textOfShots(captions: readonly string[]): string {
  return captions.map((caption) => caption.trim()).join('\n');
}

/** A caption is one line: line breaks typed into it are dropped. */
export function cleanCaption(caption: string): string {
  return caption.replace(/[\r\n]+/g, '');
}

/**
 * How long a shot stays on screen, in milliseconds: its sentences spoken (the SDK's one speech
 * model, the same the server's estimates use) and the pause before the next shot.
 */
export function estimateShotMs(
  caption: string,
  options: { voiceId?: string | null; speed?: number },
): number {
  const ms = estimateNarrationMs(caption, options);
  return ms > 0 ? ms + SENTENCE_PAUSE_MS : 0;
}
