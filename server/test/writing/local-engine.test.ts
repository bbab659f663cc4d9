import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { splitChapters } from '../../src/writing/books/parse';
import {
  compose,
  createLocalProvider,
  LOCAL_ENGINE_LABEL,
  polish,
} from '../../src/writing/local/engine';
import type { TextRequest } from '../../src/writing/types';

const book = splitChapters(
  readFileSync(path.join(__dirname, '../../assets/sample-books/qingdeng-zhaojian.txt'), 'utf8'),
  'x',
);
const source = book.chapters.slice(0, 2).map((c) => ({ title: c.title, text: c.content }));
const han = (text: string) => text.match(/\p{Script=Han}/gu)?.length ?? 0;
const base: TextRequest = { bookTitle: book.title, length: 300, source };

describe('local engine', () => {
  it('writes Chinese promo copy of roughly the asked length, from the chapters, with a question', () => {
    const text = compose({ ...base, kind: 'promo' }, 1);
    expect(han(text) / text.length).toBeGreaterThan(0.7);
    expect(text.length).toBeGreaterThan(300 * 0.6);
    expect(text.length).toBeLessThan(300 * 1.5);
    expect(text).toContain('林默'); // the lead, found by the engine
    expect(text).toContain('《青灯照剑》');
    expect(text).toMatch(/？/);
    // Extractive: a sentence of the chapter is in the copy.
    expect(text).toContain('林默在这里守了七年。');
  });

  it('follows the length', () => {
    const short = compose({ ...base, kind: 'promo', length: 150 }, 1);
    const long = compose({ ...base, kind: 'promo', length: 500 }, 1);
    expect(long.length).toBeGreaterThan(short.length + 150);
  });

  it('writes different texts per kind: narration in short lines, spoken short', () => {
    const promo = compose({ ...base, kind: 'promo' }, 1);
    const narration = compose({ ...base, kind: 'narration', length: 400 }, 1);
    const spoken = compose({ ...base, kind: 'spoken', length: 150 }, 1);
    expect(new Set([promo, narration, spoken]).size).toBe(3);
    const lines = narration.split('\n');
    expect(lines.length).toBeGreaterThan(8);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(40);
    expect(spoken.length).toBeLessThan(260);
  });

  it('tone changes the wording', () => {
    const passion = compose({ ...base, kind: 'promo', tone: '热血' }, 1);
    const suspense = compose({ ...base, kind: 'promo', tone: '悬疑' }, 1);
    expect(passion.split('\n')[0]).not.toBe(suspense.split('\n')[0]);
  });

  it('has an answer for every creative mode', () => {
    const text = book.chapters[1]?.content ?? '';
    for (const mode of ['write', 'continue', 'rewrite', 'expand', 'polish', 'titles'] as const) {
      const out = compose(
        {
          mode,
          length: 300,
          source: [
            {
              title: '',
              text: mode === 'write' ? '1. 少年被逐出宗门\n2. 在山下小镇遇到神秘铁匠' : text,
            },
          ],
        },
        2,
      );
      expect(out.length).toBeGreaterThan(20);
    }
    const titles = compose({ mode: 'titles', length: 200, source: [{ title: '', text }] }, 2);
    expect(titles.split('\n').filter((l) => /^\d+\. 《.+》$/.test(l))).toHaveLength(10);
    expect(polish('他说 ,好吧!!我们走吧.然后然后我们就走了')).toBe(
      '他说，好吧！我们走吧。然后我们就走了',
    );
  });

  it('streams in small pieces under its own label', async () => {
    const provider = createLocalProvider({ pieceDelayMs: 0, seed: () => 1 });
    expect(provider.label).toBe(LOCAL_ENGINE_LABEL);
    const pieces: string[] = [];
    for await (const piece of provider.stream(
      { ...base, kind: 'promo' },
      new AbortController().signal,
    ))
      pieces.push(piece);
    expect(pieces.length).toBeGreaterThan(20);
    expect(pieces.join('')).toBe(compose({ ...base, kind: 'promo' }, 1));
  });
});
