// Twelve consecutive shots of a sample story drawn by the local renderer (no image service),
// laid out as one 4x3 contact sheet, so two looks of the offline pictures can be compared.
// Usage: node bench/contact-sheet.mjs [--out contact-sheet.jpg|.png] [--aspect 9:16]
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const requireFromServer = createRequire(path.join(root, 'server', 'package.json'));
// tsx (a dependency of @kol/server) loads the engine's TypeScript in this process.
const tsxApi = requireFromServer.resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs');
const { tsImport } = await import(pathToFileURL(tsxApi).href);
const load = (p) => tsImport(pathToFileURL(path.join(root, 'server/src', p)).href, import.meta.url);
const { createCanvas, loadImage } = requireFromServer('@napi-rs/canvas');

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'contact-sheet.jpg' },
    aspect: { type: 'string', default: '9:16' },
  },
});

const { splitSentences } = await load('video/engine/captions.ts');
const { groupShots } = await load('video/pipelines/kit/storyboard.ts');
const { defaultSize } = await load('video/engine/compose.ts');
const { drawShotImage } = await load('video/pipelines/kit/draw.ts');

// A short web-novel passage: two named roles, a rainy night in the palace.
const STORY = [
  '夜色如墨，皇城的宫灯一盏盏熄灭。',
  '沈清辞撑着油纸伞，独自站在太和殿外的石阶上。',
  '冷雨顺着伞骨滑落，打湿了她素白的裙角。',
  '三年前，她的父亲就是在这座宫殿里被赐死的。',
  '“沈姑娘深夜入宫，不怕被人看见吗？”',
  '萧景珩从回廊的阴影里走出来，玄色长袍上落满了雨珠。',
  '沈清辞没有回头，只是握紧了袖中的短刀。',
  '“殿下既然来了，想必已经知道我要做什么。”',
  '远处的钟楼敲响了三更，雨越下越大。',
  '萧景珩抬手，替她挡住了斜飞的雨丝。',
  '“这一局，我陪你下到底。”',
  '月光终于穿过云层，照亮了大殿屋顶上的金色琉璃瓦。',
  '她转过身，第一次看清了他眼中的火光。',
  '宫门外，禁军的马蹄声由远及近。',
  '两人对视一眼，一同消失在茫茫雨幕之中。',
  '马蹄踏碎了长街上的积水，惊起檐下一片寒鸦。',
  '沈清辞的手心全是冷汗，短刀却始终没有出鞘。',
  '萧景珩低声道：“往西走，御花园的假山后有一道暗门。”',
  '她咬了咬唇，终究还是跟了上去。',
  '暗门之后是一条狭长的密道，墙上的火把忽明忽暗。',
  '密道尽头，是一间落满灰尘的书房。',
  '书案上摊着一封泛黄的密信，上面盖着先帝的玉玺。',
  '沈清辞只看了一眼，眼泪便落了下来。',
  '“原来父亲是冤枉的。”',
  '萧景珩沉默良久，终于开口：“害死你父亲的人，如今就坐在龙椅上。”',
  '窗外电闪雷鸣，照亮了她苍白的脸。',
  '她擦干眼泪，把密信贴身收好。',
  '“那我便掀了这龙椅。”',
  '天边渐渐泛白，雨终于停了。',
  '宫城的屋檐上，残雪未消，映着初升的朝阳。',
  '两人并肩站在城楼上，俯瞰着沉睡的京城。',
  '一场风暴，正在这座城的深处悄然酝酿。',
  '那一夜之后，整个京城都变了天。',
].join('');

const roles = [
  {
    roleId: 1,
    name: '沈清辞',
    description: '罪臣之女，白衣素裙，清冷倔强，袖藏短刀',
    seed: 101,
    referenceImagePath: null,
  },
  {
    roleId: 2,
    name: '萧景珩',
    description: '七皇子，玄衣墨发，深沉隐忍',
    seed: 202,
    referenceImagePath: null,
  },
];

const shots = groupShots(splitSentences(STORY)).slice(0, 12);
const size = defaultSize(values.aspect);
const columns = 4;
const rows = 3;
const cell = { width: Math.round(size.width / 4), height: Math.round(size.height / 4) };
const gap = 12;
const sheet = createCanvas(
  columns * cell.width + (columns + 1) * gap,
  rows * cell.height + (rows + 1) * gap,
);
const ctx = sheet.getContext('2d');
ctx.fillStyle = '#202022';
ctx.fillRect(0, 0, sheet.width, sheet.height);

const started = performance.now();
for (const shot of shots) {
  const drawn = await drawShotImage(
    null,
    {
      prompt: shot.imagePrompt,
      caption: shot.caption,
      roles,
      style: null,
      seedKey: `sample:${shot.index}`,
      // The work and index the designed look picks its layout from (ignored by older code).
      seriesKey: 'sample-work',
      shotIndex: shot.index,
      ...size,
    },
    new AbortController().signal,
  );
  const image = await loadImage(drawn.jpeg);
  const x = gap + (shot.index % columns) * (cell.width + gap);
  const y = gap + Math.floor(shot.index / columns) * (cell.height + gap);
  ctx.drawImage(image, x, y, cell.width, cell.height);
}
const elapsed = performance.now() - started;

const out = path.resolve(values.out);
// A .png name writes PNG (for viewers without JPEG), anything else JPEG.
await writeFile(
  out,
  out.endsWith('.png') ? sheet.toBuffer('image/png') : sheet.toBuffer('image/jpeg', 88),
);
console.log(
  `${shots.length} shots at ${size.width}x${size.height} in ${Math.round(elapsed)} ms ` +
    `(${Math.round(elapsed / shots.length)} ms a shot) -> ${out}`,
);
