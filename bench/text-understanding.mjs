// How well the server reads a story, on the labelled corpus (server/test/text/corpus): shots
// split inside quotations, role precision and recall, non-roles taken for roles, speaker and
// gender accuracy, and how much of each labelled look a role's description holds.
// Usage: node bench/text-understanding.mjs [--misses]   (see bench/README.md)
// With LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY) set, the configured model's roles too.
import { parseArgs } from 'node:util';

import { loadTs } from './lib/typescript.mjs';
const { values } = parseArgs({ options: { misses: { type: 'boolean', default: false } } });

const corpusModule = await loadTs('server/test/text/corpus/score.ts');
const { loadCorpus, localReading, modelReadings, score } = corpusModule;
const corpus = loadCorpus();

const pct = (x) => `${(x * 100).toFixed(1)} %`;
function print(label, figures) {
  console.log(`\n${label}: ${figures.passages} passages, ${figures.quotes} quotations`);
  console.log(`  shot splits inside quotations   ${figures.splitsInsideQuotes}   (goal 0)`);
  console.log(`  shots starting/ending on a mark ${figures.badShotEdges}   (goal 0)`);
  console.log(
    `  role precision                  ${figures.rolePrecision.toFixed(3)}   (goal ≥ 0.9)`,
  );
  console.log(`  role recall                     ${figures.roleRecall.toFixed(3)}   (goal ≥ 0.9)`);
  console.log(`  non-roles taken for roles       ${figures.nonRolesLeaked}   (goal 0)`);
  console.log(`  speaker accuracy                ${pct(figures.speakerAccuracy)}   (goal ≥ 90 %)`);
  console.log(`  gender accuracy                 ${pct(figures.genderAccuracy)}   (goal ≥ 90 %)`);
  console.log(`  labelled look held              ${pct(figures.lookCoverage)}`);
  if (values.misses) for (const miss of figures.misses) console.log(`    ${miss}`);
}

const started = performance.now();
print('local engine', score(corpus, localReading));
console.log(`  (${((performance.now() - started) / corpus.length).toFixed(1)} ms a passage)`);

if (process.env.LLM_BASE_URL && process.env.LLM_MODEL) {
  const { createOpenAiChatModel } = await loadTs('server/src/providers/chat.ts');
  const model = createOpenAiChatModel({
    baseUrl: process.env.LLM_BASE_URL,
    model: process.env.LLM_MODEL,
    apiKey: process.env.LLM_API_KEY ?? '',
    timeoutMs: 120_000,
    maxRetries: 2,
  });
  const readings = await modelReadings(corpus, model);
  print(
    `chat model ${model.label} (roles, genders, looks; speakers local)`,
    score(corpus, (text) => readings.get(text)),
  );
} else {
  console.log('\n(no LLM_BASE_URL: the chat model is not measured)');
}
