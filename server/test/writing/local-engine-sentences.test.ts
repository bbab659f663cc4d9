import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { splitChapters } from '../../src/writing/books/parse';
import { compose } from '../../src/writing/local/engine';
import { defects, isFragment, spokenLines, type Found } from '../../src/writing/local/sentences';
import type { TextRequest } from '../../src/writing/types';

const samplesDir = path.join(__dirname, '../../assets/sample-books');
const books = readdirSync(samplesDir)
  .filter((name) => name.endsWith('.txt'))
  .map((name) => splitChapters(readFileSync(path.join(samplesDir, name), 'utf8'), name));

const KINDS = ['promo', 'narration', 'spoken'] as const;
const MODES = ['write', 'continue', 'rewrite', 'expand', 'polish', 'titles'] as const;

describe('the local engine writes whole sentences (issue 30)', () => {
  it('cuts a long sentence without losing a quotation or leaving a fragment', () => {
    // The two glitches issue 30 found, from 青灯照剑.
    expect(spokenLines('林默接过食盒，摇头道：“我去做什么？给别人当陪练吗？”')).toEqual([
      '林默接过食盒，摇头道：“我去做什么？给别人当陪练吗？”',
    ]);
    const lines = spokenLines('火光中，林默看见周衍袖口沾着一点灯油的痕迹。');
    expect(lines).toEqual(['火光中，林默看见周衍袖口沾着一点灯油的痕迹。']);
    expect(isFragment('火光中。')).toBe(true);
    // A long sentence is still cut where both sides stand alone, each ended by a full stop.
    expect(spokenLines('他添了三次油，剪了两次芯，灯焰还是一点点暗下去。', 14)).toEqual([
      '他添了三次油，剪了两次芯。',
      '灯焰还是一点点暗下去。',
    ]);
    // The checks find what the old cut wrote.
    expect(defects('随后，林默接过食盒，摇头道。\n火光中。\n“三百年了，终于有人把）')).toEqual([
      { defect: 'orphan-speech-verb', sentence: '随后，林默接过食盒，摇头道。' },
      { defect: 'fragment', sentence: '火光中。' },
      { defect: 'unbalanced-quote', sentence: '“三百年了，终于有人把）' },
      { defect: 'unpunctuated', sentence: '“三百年了，终于有人把）' },
    ]);
  });

  it('over every sample book, kind and mode: no defect', () => {
    const found: Array<Found & { run: string }> = [];
    let texts = 0;
    for (const book of books) {
      const parts = book.chapters.map((c) => ({ title: c.title, text: c.content }));
      for (const source of [...parts.map((p) => [p]), parts.slice(0, 3)]) {
        const requests: Array<[string, Omit<TextRequest, 'source'>]> = [
          ...KINDS.map((kind): [string, Omit<TextRequest, 'source'>] => [
            kind,
            { kind, length: 400 },
          ]),
          ...MODES.map((mode): [string, Omit<TextRequest, 'source'>] => [
            mode,
            { mode, length: 400 },
          ]),
        ];
        for (const seed of [0, 1]) {
          for (const [run, request] of requests) {
            const text = compose({ ...request, bookTitle: book.title, source }, seed);
            texts++;
            expect(text.trim()).not.toBe('');
            for (const d of defects(text, { titles: run === 'titles' })) found.push({ ...d, run });
          }
        }
      }
    }
    expect(texts).toBeGreaterThan(200);
    expect(found).toEqual([]);
  });
});
