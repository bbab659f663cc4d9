import type { VocabularyItem } from '@kol/shared-sdk';

export interface FlaggedWord {
  word: string;
  replacement: string;
  count: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The words of the list a caption contains, longer words first so 全网第一 is not also counted
 * as 第一; Latin words in any case. The server's check (before anything is spent) also knows a
 * few phrases that only contain a word (第一次), so this list can show a word it would let pass.
 */
export function findFlaggedWords(
  text: string,
  vocabulary: readonly VocabularyItem[],
): FlaggedWord[] {
  const found: FlaggedWord[] = [];
  let rest = text;
  const longestFirst = [...vocabulary].sort((a, b) => b.word.length - a.word.length);
  for (const item of longestFirst) {
    if (!item.word) continue;
    const pattern = new RegExp(escape(item.word), 'gi');
    const count = rest.match(pattern)?.length ?? 0;
    if (count === 0) continue;
    found.push({ word: item.word, replacement: item.replacement, count });
    // Blank it out so a shorter word inside it is not counted again.
    rest = rest.replace(pattern, (match) => ' '.repeat(match.length));
  }
  return found;
}

/** The text with every occurrence of the word (any case) replaced. */
export function replaceWord(text: string, word: string, replacement: string): string {
  return text.replace(new RegExp(escape(word), 'gi'), replacement);
}
