import { Jieba, TfIdf } from '@node-rs/jieba';
import { dict, idf } from '@node-rs/jieba/dict';

/**
 * The one jieba of the server (word segmentation, TF-IDF keywords), for the local writing engine
 * and the caption line breaks alike. Loading the dictionary takes ~200 ms, so it happens once,
 * on first use.
 */
let jieba: Jieba | null = null;
let tfidf: TfIdf | null = null;

export function segmenter(): { jieba: Jieba; tfidf: TfIdf } {
  jieba ??= Jieba.withDict(dict);
  tfidf ??= TfIdf.withDict(idf);
  return { jieba, tfidf };
}

/** The words of a text as jieba cuts it (HMM on, for names it has never seen). */
export function words(text: string): string[] {
  return segmenter().jieba.cut(text, true);
}
