#!/usr/bin/env node
// What a creator gets from a comic video made through the API on the embedded defaults (no AI
// key, no image service): its length, how long it took to render, its quality report (measured
// loudness, true peak, local-frame shots, long captions, engines) and its captions as the SRT
// has them. Starts the product as the README's start command does, on a free port with fresh
// data, and uses the demo user. Usage: node bench/video-quality.mjs [--url http://127.0.0.1:8080]
import { parseArgs } from 'node:util';
import { demoSession, startProduct } from './lib/product.mjs';
import { STORY } from './lib/story.mjs';

const { values } = parseArgs({ options: { url: { type: 'string' } } });

process.on('SIGINT', () => process.exit(130));

const base = values.url ?? (await startProduct({}, 'kol-bench-quality-'));
const { cookie, call } = await demoSession(base);

const { workId } = await call('POST', '/api/video/save_text', {
  type: 0,
  title: '二十年后的信',
  text: STORY,
});
const started = Date.now();
const { taskId } = await call('POST', '/api/video/gen_video', { workId });
let result;
for (;;) {
  result = await call('GET', `/api/video/get_work_result?taskId=${encodeURIComponent(taskId)}`);
  if (result.state === 'succeeded') break;
  if (result.state === 'failed') throw new Error(`the video failed: ${result.error}`);
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const tookMs = Date.now() - started;
const srt = await (await fetch(`${base}${result.srtUrl}`, { headers: { cookie } })).text();
const cues = srt
  .replace(/\r/g, '')
  .trim()
  .split(/\n\n+/)
  .map((block) => block.split('\n').slice(2));
const report = result.report;

console.log(`comic video through the API on the embedded defaults (${base})`);
console.table({
  'video length': `${(result.durationMs / 1000).toFixed(1)} s`,
  'from gen_video to done': `${(tookMs / 1000).toFixed(1)} s (${(tookMs / result.durationMs).toFixed(2)}x real time)`,
  'integrated loudness': `${report.loudnessLufs.toFixed(1)} LUFS`,
  'true peak': `${report.truePeakDbtp.toFixed(1)} dBTP`,
  narration: `${(report.narrationMs / 1000).toFixed(1)} s`,
  'SRT cues': cues.length,
  'lines per cue (most)': Math.max(...cues.map((lines) => lines.length)),
  'local-frame fallback shots': report.fallbackShots.length,
  'caption lines over the limit': report.longCaptions.length,
  'flagged words': report.flaggedWords.length,
  'engines (text / pictures / voice)': `${report.providers.text ?? '作者自己的文案'} / ${report.providers.pictures} / ${report.providers.voice}`,
  problems: report.problems.map((problem) => problem.message).join('；') || 'none',
});
console.log('The first captions as the SRT has them:');
for (const lines of cues.slice(0, 8)) console.log(`  ${lines.join(' / ')}`);
process.exit(0);
