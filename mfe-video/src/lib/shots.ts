/**
 * Shots of a comic clip as the caption page edits them. The first split mirrors the server's
 * (`server/src/video/engine/captions.ts` `splitSentences` and `video/pipelines/comics/pipeline.ts` `groupShots`), so a
 * creator who changes nothing gets the shots the server would make; the shots saved with
 * `update_text` are the video's shots either way (the server speaks and draws them as saved).
 */

// A Latin full stop ends a sentence only before a space or the end (not in 3.5 or a.m.).
const SENTENCE_END = /([。！？!?；;…]+[”’」』）)]*|\.+["')]*(?=\s|$)|\n+)/;
const CLAUSE_BREAK = /([，,、：:]+)/;
const MAX_SENTENCE_CHARS = 40;
const MAX_SENTENCES_PER_SHOT = 3;
const MAX_SHOT_CHARS = 60;

/** Sentences at sentence punctuation or line ends; a long one is cut again at commas. */
export function splitSentences(text: string, maxChars = MAX_SENTENCE_CHARS): string[] {
  const pieces = text.split(SENTENCE_END);
  const sentences: string[] = [];
  for (let i = 0; i < pieces.length; i += 2) {
    const sentence = `${pieces[i] ?? ''}${(pieces[i + 1] ?? '').replace(/\n+/g, '')}`.trim();
    if (!sentence) continue;
    if (sentence.length <= maxChars) {
      sentences.push(sentence);
      continue;
    }
    const clauses = sentence.split(CLAUSE_BREAK);
    let current = '';
    for (let j = 0; j < clauses.length; j += 2) {
      const clause = `${clauses[j] ?? ''}${clauses[j + 1] ?? ''}`;
      if (current && current.length + clause.length > maxChars) {
        sentences.push(current.trim());
        current = '';
      }
      current += clause;
    }
    if (current.trim()) sentences.push(current.trim());
  }
  return sentences.filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** Shot captions of a text: 1 to 3 sentences each, a shot ending before it passes 60 characters. */
export function splitIntoShots(text: string): string[] {
  const groups: string[][] = [];
  let current: string[] = [];
  for (const sentence of splitSentences(text)) {
    const chars = current.join('').length + sentence.length;
    if (
      current.length > 0 &&
      (current.length >= MAX_SENTENCES_PER_SHOT || chars > MAX_SHOT_CHARS)
    ) {
      groups.push(current);
      current = [];
    }
    current.push(sentence);
  }
  if (current.length > 0) groups.push(current);
  return groups.map((group) => group.join(''));
}

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

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/g;
const LATIN_WORD = /[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*/g;
/** Speaking rates at speed 1, measured on the offline voices: characters and words a second. */
const CJK_PER_SECOND = 4.2;
const WORDS_PER_SECOND = 2.6;
/** The pause the narration leaves after each sentence. */
const SENTENCE_PAUSE_MS = 250;

/** How long a caption takes to say at a speed (0.5 to 2), in milliseconds. */
export function estimateSpeechMs(caption: string, speed = 1): number {
  const cjk = caption.match(CJK)?.length ?? 0;
  const words = caption.replace(CJK, ' ').match(LATIN_WORD)?.length ?? 0;
  const sentences = Math.max(1, splitSentences(caption).length);
  const spoken = (cjk / CJK_PER_SECOND + words / WORDS_PER_SECOND) * 1000;
  return Math.round(spoken / (speed > 0 ? speed : 1) + sentences * SENTENCE_PAUSE_MS);
}
