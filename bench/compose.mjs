// The render time of a 60-second comic video (12 shots, local frames, espeak narration,
// synthesised music, burned Chinese captions, 1080x1920) with the engine's recipe, and in the
// same run the naive recipe on the same inputs.
// Usage: node bench/compose.mjs [--shots 12] [--naive-cap 240] [--keep]
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const requireFromServer = createRequire(path.join(root, 'server', 'package.json'));
// tsx (a dependency of @kol/server) loads the engine's TypeScript in this process.
const tsxApi = requireFromServer.resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs');
const { tsImport } = await import(pathToFileURL(tsxApi).href);
process.chdir(root);
const load = (p) => tsImport(pathToFileURL(path.join(root, 'server/src', p)).href, import.meta.url);

const { values } = parseArgs({
  options: {
    shots: { type: 'string', default: '12' },
    'naive-cap': { type: 'string', default: '240' },
    keep: { type: 'boolean', default: false },
  },
});
const shotCount = Number(values.shots);
const naiveCap = Number(values['naive-cap']);

const { splitSentences, writeCaptions } = await load('video/engine/captions.ts');
const { FPS } = await load('video/engine/compose.ts');
const { composeVideo } = await load('video/engine/compose-segments.ts');
const { resolveFfmpegPath, probeWithFfmpeg, measureLoudness } =
  await load('video/engine/ffmpeg.ts');
const { cjkFonts } = await load('video/engine/fonts.ts');
const { renderFrameToFile } = await load('video/engine/frames/render-frame.ts');
const { ensureAmbientTrack } = await load('video/library/music/ambient.ts');
const { synthesizeSentences } = await load('providers/speech/espeak.ts');

const STORY = [
  '夜幕降临，城市亮起了万家灯火。',
  '林晓拖着行李箱，走出了火车站。',
  '她已经十年没有回到这座小城了。',
  '街角的那家面馆，竟然还开着。',
  '老板一眼就认出了她，笑着招手。',
  '陈默坐在靠窗的位置，低头看着手机。',
  '两人四目相对，空气仿佛凝固了。',
  '原来，他一直在等一个解释。',
  '林晓深吸一口气，终于开口说话。',
  '那年夏天的误会，其实另有隐情。',
  '窗外下起了小雨，面汤还冒着热气。',
  '陈默沉默良久，轻轻说了一句：回来就好。',
  '林晓的眼眶红了，她点了点头。',
  '雨停了，街灯把两个人的影子拉得很长。',
  '这一次，她决定留下来。',
];
const ROLES = [
  ['林晓'],
  ['林晓'],
  ['林晓'],
  [],
  ['老板', '林晓'],
  ['陈默'],
  ['林晓', '陈默'],
  ['陈默'],
  ['林晓'],
  ['林晓', '陈默'],
  [],
  ['陈默', '林晓'],
];

const dir = await mkdtemp(path.join(os.tmpdir(), 'kol-bench-compose-'));
const size = { width: 1080, height: 1920 };
const t = () => performance.now();

// Inputs (not timed as rendering): about 60 s of narration, the frames, the music.
let t0 = t();
const sentences = STORY.flatMap((s) => splitSentences(s));
const speech = await synthesizeSentences(sentences, path.join(dir, 'narration.wav'));
const capPaths = {
  srtPath: path.join(dir, 'captions.srt'),
  assPath: path.join(dir, 'captions.ass'),
};
await writeCaptions(speech.segments, capPaths, size, '9:16');
const tSpeech = t() - t0;

t0 = t();
const per = Math.floor(speech.durationMs / shotCount);
const shots = [];
for (let i = 0; i < shotCount; i++) {
  const imagePath = await renderFrameToFile(
    { scene: STORY[i % STORY.length], roles: ROLES[i % ROLES.length], ...size },
    path.join(dir, `frame-${i}.jpg`),
  );
  shots.push({
    imagePath,
    durationMs: i < shotCount - 1 ? per : speech.durationMs - per * (shotCount - 1),
  });
}
const tFrames = t() - t0;
t0 = t();
const musicPath = await ensureAmbientTrack(path.join(dir, 'music'), 'ambient-calm');
const tMusic = t() - t0;
const seconds = speech.durationMs / 1000;

console.log(
  `inputs: ${sentences.length} sentences, narration ${seconds.toFixed(1)} s (espeak ${(tSpeech / 1000).toFixed(1)} s), ${shotCount} frames ${(tFrames / 1000).toFixed(1)} s, music ${(tMusic / 1000).toFixed(1)} s`,
);
console.log(`machine: ${os.availableParallelism()} cores, ffmpeg ${resolveFfmpegPath()}`);

// 1. The engine's recipe.
t0 = t();
const result = await composeVideo(
  { aspect: '9:16', shots, narrationWav: speech.wavPath, musicPath, ...capPaths },
  path.join(dir, 'fast'),
);
const fastMs = t() - t0;
const info = await probeWithFfmpeg(result.videoPath);
const lufs = await measureLoudness(result.videoPath);
console.log(
  `engine recipe: ${(fastMs / 1000).toFixed(1)} s wall for ${(result.durationMs / 1000).toFixed(1)} s of video = ${(fastMs / result.durationMs).toFixed(2)}x real time ` +
    `(${info.video?.width}x${info.video?.height} ${info.video?.fps} fps ${info.video?.codec}/${info.audio?.codec}, ${lufs} LUFS)`,
);

// 2. The naive recipe: every still as a `-loop 1` input (decoded every frame), zoompan, concat,
// one encode; then a second full encode to burn the captions and mix the audio.
function runCapped(args, capSeconds, expectSeconds) {
  return new Promise((resolve, reject) => {
    const child = spawn(resolveFfmpegPath(), ['-nostdin', '-y', '-hide_banner', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let tail = '';
    child.stderr.on('data', (c) => (tail = (tail + c.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), capSeconds * 1000);
    const start = t();
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = t() - start;
      if (signal === 'SIGKILL') {
        // Capped: extrapolate from how far the encode got.
        const m = [...tail.matchAll(/time=(\d+):(\d+):([\d.]+)/g)].at(-1);
        const reached = m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : 0;
        resolve({
          ms,
          capped: true,
          reached,
          estimateMs: reached > 0 ? (ms * expectSeconds) / reached : Infinity,
        });
      } else if (code === 0) resolve({ ms, capped: false });
      else reject(new Error(`naive ffmpeg failed: ${tail.slice(-500)}`));
    });
  });
}

const naiveInputs = shots.flatMap((s) => [
  '-loop',
  '1',
  '-framerate',
  String(FPS),
  '-t',
  (s.durationMs / 1000).toFixed(3),
  '-i',
  s.imagePath,
]);
const naiveGraph =
  shots
    .map(
      (s, i) =>
        `[${i}:v]scale=1620:2880,zoompan=z='min(zoom+0.0015,1.5)':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=1:s=1080x1920:fps=${FPS},setsar=1[v${i}]`,
    )
    .join(';') +
  `;${shots.map((_, i) => `[v${i}]`).join('')}concat=n=${shots.length}:v=1:a=0,format=yuv420p[v]`;
const naive1 = path.join(dir, 'naive-pass1.mp4');
const pass1 = await runCapped(
  [
    ...naiveInputs,
    '-filter_complex',
    naiveGraph,
    '-map',
    '[v]',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    naive1,
  ],
  naiveCap,
  seconds,
);
let naiveLine;
if (pass1.capped) {
  naiveLine = `naive recipe: CAPPED at ${naiveCap} s in its first encode (reached ${pass1.reached.toFixed(1)} s of ${seconds.toFixed(1)} s); that pass alone extrapolates to ${(pass1.estimateMs / 1000).toFixed(0)} s = ${(pass1.estimateMs / 1000 / seconds).toFixed(2)}x real time, before the caption encode`;
} else {
  const fontsdir = cjkFonts().dir;
  const pass2 = await runCapped(
    [
      '-i',
      naive1,
      '-i',
      speech.wavPath,
      '-stream_loop',
      '-1',
      '-i',
      musicPath,
      '-filter_complex',
      `[0:v]subtitles=filename='${capPaths.assPath}':fontsdir='${fontsdir}'[v];[2:a]volume=0.35[m];[1:a]asplit[a1][a2];[m][a2]sidechaincompress=threshold=0.02:ratio=10[d];[a1][d]amix=inputs=2:duration=first,loudnorm=I=-16[a]`,
      '-map',
      '[v]',
      '-map',
      '[a]',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-c:a',
      'aac',
      '-shortest',
      path.join(dir, 'naive.mp4'),
    ],
    naiveCap * 2,
    seconds,
  );
  const total = pass1.ms + pass2.ms;
  naiveLine = `naive recipe: ${(total / 1000).toFixed(1)} s wall = ${(total / 1000 / seconds).toFixed(2)}x real time (zoompan encode ${(pass1.ms / 1000).toFixed(1)} s + caption/audio encode ${(pass2.ms / 1000).toFixed(1)} s${pass2.capped ? ', second pass CAPPED' : ''})`;
}
console.log(naiveLine);
const naiveMs = pass1.capped ? pass1.estimateMs : null;
if (naiveMs)
  console.log(
    `engine recipe is at least ${(naiveMs / fastMs).toFixed(1)}x faster (naive extrapolated)`,
  );

if (values.keep) console.log(`outputs kept in ${dir}`);
else await rm(dir, { recursive: true, force: true });
