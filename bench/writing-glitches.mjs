// Defects of the local writing engine's sentences over the sample books (issue 30): unbalanced
// quotation marks, a speech verb without the words it introduces (摇头道。), fragments without a
// predicate (火光中。) and sentences without end punctuation, per kind and mode, with examples.
// Usage: node bench/writing-glitches.mjs [--seeds 5] [--examples 3] [--engine file.ts]
// (--engine: another version of server/src/writing/local/engine.ts, e.g. an older commit's
// copied beside it, to count its defects with the same checks; see bench/README.md)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { loadTs, root } from './lib/typescript.mjs';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '5' },
    examples: { type: 'string', default: '3' },
    engine: { type: 'string', default: 'server/src/writing/local/engine.ts' },
  },
});
const seeds = Number(values.seeds);

const load = loadTs;
const engine = await load(values.engine);
const checks = await load('server/src/writing/local/sentences.ts');
const parse = await load('server/src/writing/books/parse.ts');

const samplesDir = path.join(root, 'server/assets/sample-books');
const books = readdirSync(samplesDir)
  .filter((name) => name.endsWith('.txt'))
  .map((name) => parse.splitChapters(readFileSync(path.join(samplesDir, name), 'utf8'), name));

const KINDS = ['promo', 'narration', 'spoken'];
const MODES = ['write', 'continue', 'rewrite', 'expand', 'polish', 'titles'];
const counts = {};
const examples = {};
let texts = 0;
let sentences = 0;
for (const book of books) {
  const parts = book.chapters.map((c) => ({ title: c.title, text: c.content }));
  // Each chapter alone and the first three together, as the one-click article sends them.
  const sources = [...parts.map((p) => [p]), parts.slice(0, 3)];
  for (const source of sources) {
    for (let seed = 0; seed < seeds; seed++) {
      const runs = [
        ...KINDS.map((kind) => ({ label: kind, request: { kind, length: 300 } })),
        ...KINDS.map((kind) => ({ label: `${kind} 600`, request: { kind, length: 600 } })),
        ...MODES.map((mode) => ({ label: mode, request: { mode, length: 600 } })),
      ];
      for (const { label, request } of runs) {
        const text = engine.compose({ ...request, bookTitle: book.title, source }, seed);
        texts++;
        sentences += text.split('\n').flatMap((l) => checks.sentencesOf(l.trim())).length;
        for (const { defect, sentence } of checks.defects(text, { titles: label === 'titles' })) {
          const key = `${label.split(' ')[0]} ${defect}`;
          counts[key] = (counts[key] ?? 0) + 1;
          (examples[key] ??= new Set()).add(sentence);
        }
      }
    }
  }
}

const total = Object.values(counts).reduce((a, b) => a + b, 0);
console.log(
  `${books.length} sample books, ${texts} texts, ${sentences} sentences: ${total} defects`,
);
for (const [key, count] of Object.entries(counts).sort((a, b) => b[1] - a[1])) {
  const shown = [...examples[key]].slice(0, Number(values.examples)).join(' | ');
  console.log(`  ${key.padEnd(32)} ${String(count).padStart(5)}  ${shown}`);
}
