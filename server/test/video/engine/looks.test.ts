import { describe, expect, it } from '@jest/globals';
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { defaultSize } from '../../../src/video/engine/compose';
import { CJK_FONT_FAMILY } from '../../../src/video/engine/fonts';
import { LOCAL_FALLBACK_LABEL, LOCAL_FRAME_LABEL } from '@kol/shared-sdk/contracts';
import { ensureFonts, renderFrame } from '../../../src/video/engine/frames/render-frame';
import type { ImageProvider } from '../../../src/providers/images/types';
import { drawShotImage } from '../../../src/video/pipelines/kit/draw';
import { LAYOUT_IDS, layoutAt } from '../../../src/video/engine/looks/layouts';
import {
  TEXT_INSET,
  composeLocalPicture,
  keyPhrase,
  type LocalPictureInput,
} from '../../../src/video/engine/looks/render';
import { sceneLook } from '../../../src/video/engine/looks/theme';
import { captionBand } from '../../../src/video/engine/captions';
import type { RoleLook } from '../../../src/video/pipelines/kit/prompt';

const signal = () => new AbortController().signal;

/** The bounding box of the pixels that differ between two canvases of one size; null if none. */
function changedBox(a: Canvas, b: Canvas) {
  const { width, height } = a;
  const pa = a.getContext('2d').getImageData(0, 0, width, height).data;
  const pb = b.getContext('2d').getImageData(0, 0, width, height).data;
  const wa = new Uint32Array(pa.buffer, pa.byteOffset, width * height);
  const wb = new Uint32Array(pb.buffer, pb.byteOffset, width * height);
  const ba = Buffer.from(pa.buffer, pa.byteOffset, pa.byteLength);
  const bb = Buffer.from(pb.buffer, pb.byteOffset, pb.byteLength);
  // Any visible change counts, the faint edge of a shadow too.
  const changed = (p: number) => {
    if (wa[p] === wb[p]) return false;
    let diff = 0;
    for (let c = 0; c < 3; c++) diff += Math.abs((pa[p * 4 + c] ?? 0) - (pb[p * 4 + c] ?? 0));
    return diff > 6;
  };
  let box: { left: number; top: number; right: number; bottom: number } | null = null;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    // Most rows are byte for byte the same: compared natively, they skip the pixel loop.
    if (ba.compare(bb, row * 4, (row + width) * 4, row * 4, (row + width) * 4) === 0) continue;
    let x = 0;
    while (x < width && !changed(row + x)) x++;
    if (x === width) continue;
    let right = width - 1;
    while (!changed(row + right)) right--;
    box ??= { left: x, top: y, right, bottom: y };
    box.left = Math.min(box.left, x);
    box.right = Math.max(box.right, right);
    box.bottom = y;
  }
  return box;
}

/** Whether every changed pixel lies inside the frame less the text inset. */
function insideInset(
  box: NonNullable<ReturnType<typeof changedBox>>,
  width: number,
  height: number,
) {
  return (
    box.left >= width * TEXT_INSET.x - 1 &&
    box.right <= width * (1 - TEXT_INSET.x) + 1 &&
    box.top >= height * TEXT_INSET.y - 1 &&
    box.bottom <= height * (1 - TEXT_INSET.y) + 1
  );
}

const LONG = '她转过身第一次看清了他眼中的火光宫门外禁军的马蹄声由远及近两人对视一眼消失在雨幕';
// The product's two aspects, and a square one for pictures cropped to it.
const SIZES = [
  { aspect: '9:16', ...defaultSize('9:16') },
  { aspect: '16:9', ...defaultSize('16:9') },
  { aspect: '1:1', width: 1080, height: 1080 },
];

const base = (size: { width: number; height: number }): LocalPictureInput => ({
  scene: '雨夜，太和殿外',
  caption: '沈清辞撑着油纸伞，站在太和殿外的石阶上。',
  roles: [
    { name: '沈清辞', description: '白衣素裙' },
    { name: '萧景珩', description: '玄衣墨发' },
  ],
  seriesKey: 'work:1',
  shotIndex: 0,
  ...size,
});

describe('the designed local pictures keep every glyph inside the frame', () => {
  it('finds text drawn past the inset (the check can fail)', () => {
    ensureFonts();
    const blank = () => {
      const canvas = createCanvas(540, 960);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#224';
      ctx.fillRect(0, 0, 540, 960);
      return canvas;
    };
    const written = blank();
    const ctx = written.getContext('2d');
    ctx.font = `80px "${CJK_FONT_FAMILY}"`;
    ctx.fillStyle = '#fff';
    ctx.fillText('出界', 10, 500);
    const box = changedBox(written, blank());
    expect(box).not.toBeNull();
    expect(box && insideInset(box, 540, 960)).toBe(false);
  });

  for (const size of SIZES) {
    it(`every layout at ${size.aspect}, with a 40-character and a 2-character phrase`, () => {
      expect(Array.from(LONG)).toHaveLength(40);
      for (const layout of LAYOUT_IDS) {
        for (const phrase of [
          { title: LONG, tagline: LONG.slice(0, 16) },
          { title: '夜雨', tagline: '' },
        ]) {
          for (const note of [undefined, `${LONG}${LONG}`]) {
            const input = { ...base(size), ...(note ? { note } : {}) };
            const withText = composeLocalPicture(input, { layout, phrase });
            const without = composeLocalPicture(input, { layout, phrase, text: false });
            const box = changedBox(withText.canvas, without.canvas);
            const where = `${layout} ${size.aspect} 「${phrase.title.slice(0, 6)}」${note ? ' with note' : ''}`;
            expect({ where, drawn: box !== null }).toEqual({ where, drawn: true });
            expect({
              where,
              box,
              inside: box && insideInset(box, size.width, size.height),
            }).toEqual({ where, box, inside: true });
          }
        }
      }
    });
  }

  it('a role portrait keeps its name and description inside too', () => {
    const size = { width: 1080, height: 1440 };
    const input = {
      ...base(size),
      portrait: { name: '慕容长歌', description: `${LONG}，玄衣墨发` },
    };
    const withText = composeLocalPicture(input);
    const box = changedBox(withText.canvas, composeLocalPicture(input, { text: false }).canvas);
    expect(withText.layout).toBe('portrait');
    expect(box && insideInset(box, size.width, size.height)).toBe(true);
  });
});

/** Every string drawn (fillText, strokeText) on any canvas while `draw` runs. */
async function drawnStrings(draw: () => unknown): Promise<string[]> {
  const proto = Object.getPrototypeOf(createCanvas(1, 1).getContext('2d')) as Record<
    'fillText' | 'strokeText',
    (this: unknown, text: string, ...rest: number[]) => void
  >;
  const seen: string[] = [];
  const originals = { fillText: proto.fillText, strokeText: proto.strokeText };
  for (const name of ['fillText', 'strokeText'] as const) {
    const original = originals[name];
    proto[name] = function (this: unknown, text: string, ...rest: number[]) {
      seen.push(text);
      original.call(this, text, ...rest);
    };
  }
  try {
    await draw();
  } finally {
    Object.assign(proto, originals);
  }
  return seen;
}

describe('what the creator posts carries no engine label', () => {
  it('no local picture, fallback or plain frame draws 本地画面', async () => {
    const failing: ImageProvider = {
      name: 'openai',
      label: 'fake-image',
      draw: () => Promise.reject(new Error('down')),
    };
    const request = {
      prompt: '雨夜，太和殿外',
      caption: '沈清辞撑着油纸伞，站在太和殿外的石阶上。',
      roles: [],
      style: null,
      seedKey: 't:label',
      width: 270,
      height: 480,
    };
    let engines: string[] = [];
    const strings = await drawnStrings(async () => {
      for (let shotIndex = 0; shotIndex < LAYOUT_IDS.length; shotIndex++) {
        const offline = await drawShotImage(null, { ...request, shotIndex }, signal());
        const fallback = await drawShotImage(failing, { ...request, shotIndex }, signal());
        engines = [...engines, offline.engine, fallback.engine];
      }
      composeLocalPicture({ ...base({ width: 270, height: 360 }), portrait: { name: '沈清辞' } });
      renderFrame({ scene: '雨夜', roles: ['沈清辞'], width: 90, height: 160 });
    });
    // The drawing was seen (the check can fail), and the engine is still recorded per shot.
    expect(strings.join('')).toContain('沈清辞');
    expect(strings.filter((s) => s.includes('本地画面'))).toEqual([]);
    expect(new Set(engines)).toEqual(new Set([LOCAL_FRAME_LABEL, LOCAL_FALLBACK_LABEL]));
  });
});

describe('layouts, palettes and key phrases', () => {
  it('never repeats a layout in consecutive shots, and a re-render gives the same', () => {
    for (const work of ['work:1', 'work:2', 'work:77', 'sample']) {
      const ids = Array.from({ length: 40 }, (_, i) => layoutAt(work, i));
      ids.slice(1).forEach((id, i) => expect(id).not.toBe(ids[i]));
      expect(Array.from({ length: 40 }, (_, i) => layoutAt(work, i))).toEqual(ids);
      expect(new Set(ids).size).toBeGreaterThanOrEqual(4);
    }
  });

  it('draws 12 consecutive shots of one work, each unlike the one before', async () => {
    const roles: RoleLook[] = [
      { roleId: 1, name: '沈清辞', description: '白衣素裙', seed: 1, referenceImagePath: null },
      { roleId: 2, name: '萧景珩', description: '玄衣墨发', seed: 2, referenceImagePath: null },
    ];
    const captions = [
      '夜色如墨，皇城的宫灯一盏盏熄灭。',
      '沈清辞撑着油纸伞，站在太和殿外。',
      '冷雨顺着伞骨滑落，打湿了裙角。',
      '萧景珩从回廊的阴影里走出来。',
      '远处的钟楼敲响了三更。',
      '“这一局，我陪你下到底。”',
      '月光照亮了大殿屋顶上的琉璃瓦。',
      '宫门外，禁军的马蹄声由远及近。',
      '密道尽头，是一间落满灰尘的书房。',
      '书案上摊着一封泛黄的密信。',
      '窗外电闪雷鸣，照亮了她苍白的脸。',
      '天边渐渐泛白，雨终于停了。',
    ];
    const size = { width: 270, height: 480 };
    const shot = (i: number) =>
      drawShotImage(
        null,
        {
          prompt: captions[i] ?? '',
          caption: captions[i] ?? '',
          roles,
          style: null,
          seedKey: `t:${i}`,
          seriesKey: 'work:9',
          shotIndex: i,
          ...size,
        },
        signal(),
      );
    const pictures = [];
    for (let i = 0; i < 12; i++) pictures.push((await shot(i)).jpeg);
    const layouts = captions.map((_, i) => layoutAt('work:9', i));
    for (let i = 1; i < 12; i++) {
      expect(layouts[i]).not.toBe(layouts[i - 1]);
      expect(pictures[i]?.equals(pictures[i - 1] as Buffer)).toBe(false);
    }
    expect((await shot(5)).jpeg.equals(pictures[5] as Buffer)).toBe(true);
  });

  it('chooses the palette and texture by the scene’s words', () => {
    const night = sceneLook('深夜，月光洒在窗台上，满天星斗');
    const sea = sceneLook('海浪拍打着礁石');
    expect(night.theme.id).toBe('night');
    expect(sea.theme.id).toBe('sea');
    expect(night.theme.sky).not.toEqual(sea.theme.sky);
    expect(night.textures).toContain('stars');
    expect(sea.textures).toContain('waves');
    // Weather is laid over the place: rain over the palace.
    expect(sceneLook('雨夜，太和殿外的宫灯').textures).toEqual(['lattice', 'rain']);
    expect(sceneLook('他推开门').theme.id).toBe('neutral');
    for (const [words, id] of [
      ['城市的街道', 'city'],
      ['竹林深处的山谷', 'forest'],
      ['大雪纷飞', 'snow'],
      ['烈火焚城', 'fire'],
      ['公司的办公室里', 'office'],
      ['学校的教室', 'school'],
    ] as const) {
      expect(sceneLook(words).theme.id).toBe(id);
    }
    // And the pictures show it: a night and a sea sentence differ in their mean colour.
    const mean = (scene: string) => {
      const { canvas } = composeLocalPicture(
        { ...base({ width: 90, height: 160 }), scene, caption: scene, roles: [] },
        { layout: 'frame', text: false },
      );
      const data = canvas.getContext('2d').getImageData(0, 0, 90, 160).data;
      const sum = [0, 0, 0];
      for (let i = 0; i < data.length; i += 4) {
        for (let c = 0; c < 3; c++) sum[c] = (sum[c] ?? 0) + (data[i + c] ?? 0);
      }
      return sum.map((s) => s / (data.length / 4));
    };
    const [nr, ng, nb] = mean('深夜，月光洒在窗台上');
    const [sr, sg, sb] = mean('海浪拍打着礁石');
    expect(
      Math.abs((nr ?? 0) - (sr ?? 0)) +
        Math.abs((ng ?? 0) - (sg ?? 0)) +
        Math.abs((nb ?? 0) - (sb ?? 0)),
    ).toBeGreaterThan(30);
  });

  it('takes the key phrase from the nouns, places and objects, role names left to the tags', () => {
    const phrase = keyPhrase('沈清辞撑着油纸伞，独自站在太和殿外的石阶上。', '', ['沈清辞']);
    expect(phrase.title).not.toContain('沈清辞');
    expect(phrase.title.split('·').every((w) => ['油纸伞', '太和殿', '石阶'].includes(w))).toBe(
      true,
    );
    expect(phrase.tagline.length).toBeGreaterThan(0);
    expect(keyPhrase('书案上摊着一封泛黄的密信。', '', []).title).toBe('书案·密信');
    // No noun: a short clause of the caption.
    expect(keyPhrase('她咬了咬唇，终究还是跟了上去。', '', []).title).toBe('她咬了咬唇');
    // Nothing in the line itself: the picture prompt's nouns (an anime shot's scene).
    expect(keyPhrase('“这一局，我陪你下到底。”', '客栈大堂，烛火摇曳', []).title).toContain('客栈');
  });

  it('never takes discourse words, forms of address or pronouns for the key phrase', () => {
    // jieba tags 话音刚落, 小子 and 我会 as nouns: they were the titles of real shots.
    const cases: Array<[string, string[]]> = [
      ['话音刚落，小子，你找死！', ['话音刚落', '小子']],
      ['我会让你后悔的。', ['我会']],
      ['话音刚落，一道剑光划破了夜空。', ['话音刚落']],
      ['“林家的废物醒了没有？苏家来退婚了！”', ['废物', '苏家来']],
      ['师兄，你怎么来了？', ['师兄']],
      ['“沈姑娘深夜入宫，不怕被人看见吗？”', ['沈姑娘']],
      ['掌柜：只剩后院一间柴房，客官若不嫌弃，请随我来。', ['掌柜', '客官']],
    ];
    for (const [caption, never] of cases) {
      const { title } = keyPhrase(caption, '', []);
      const words = title.split('·');
      expect({ caption, title, bad: words.filter((w) => never.includes(w)) }).toEqual({
        caption,
        title,
        bad: [],
      });
      expect(title.length).toBeGreaterThan(0);
    }
    expect(keyPhrase('话音刚落，一道剑光划破了夜空。', '', []).title).toMatch(/剑光|夜空/u);
  });
});

describe('the layouts use the whole frame above the captions', () => {
  // Half-size frames: the layouts scale with the frame, and draw four times faster.
  const sizes = [
    { aspect: '9:16' as const, width: 540, height: 960 },
    { aspect: '16:9' as const, width: 960, height: 540 },
    { aspect: '9:16' as const, width: 270, height: 480 },
  ];
  const phrases = [
    { title: '夜雨', tagline: '' },
    { title: '宫灯', tagline: '皇城的宫灯一盏盏熄灭' },
    { title: '油纸伞·太和殿', tagline: '沈清辞撑着油纸伞' },
    { title: LONG, tagline: LONG.slice(0, 16) },
  ];
  const roleSets = [[], base({ width: 1, height: 1 }).roles ?? []];

  /** What is wrong with a layout's drawing model: an empty half, words on one side, captions hit. */
  function problems(
    marks: ReturnType<typeof composeLocalPicture>['marks'],
    safe: { y: number; h: number },
    size: (typeof sizes)[number],
  ): string[] {
    const span = (list: typeof marks) => ({
      top: Math.min(...list.map((m) => m.box.y)),
      bottom: Math.max(...list.map((m) => m.box.y + m.box.h)),
    });
    const all = span(marks);
    const text = span(marks.filter((m) => m.kind === 'text'));
    const middle = safe.y + safe.h / 2;
    const found: string[] = [];
    // The design reaches the top and the bottom of its area.
    if (all.top > safe.y + safe.h * 0.1) found.push('empty top');
    if (all.bottom < safe.y + safe.h * 0.9) found.push('empty bottom');
    // The words themselves are in both halves, not all above or all below the middle.
    if (!(text.top < middle && text.bottom > middle)) found.push('words in one half');
    // Nothing reaches the burned captions, even at the video's 1.15 zoom.
    const zoomed = size.height / 2 + (all.bottom - size.height / 2) * 1.15;
    if (zoomed > captionBand(size, size.aspect).top) found.push('in the caption band');
    return found;
  }

  it('every layout: content in both halves, nothing in the caption band (the drawing model)', () => {
    for (const size of sizes) {
      for (const layout of LAYOUT_IDS) {
        for (const phrase of phrases) {
          for (const roles of roleSets) {
            const input = { ...base(size), roles };
            const { marks, safe } = composeLocalPicture(input, { layout, phrase, text: false });
            const where = `${layout} ${size.width}x${size.height} 「${phrase.title.slice(0, 6)}」 ${roles.length} roles`;
            expect({ where, problems: problems(marks, safe, size) }).toEqual({
              where,
              problems: [],
            });
          }
        }
      }
    }
  });

  it('the check can fail: the old split card (a rule across the middle, the lower half empty)', () => {
    const size = sizes[0] ?? { aspect: '9:16' as const, width: 540, height: 960 };
    const { safe } = composeLocalPicture(base(size), { layout: 'split', text: false });
    // The old tall split: the panel over the upper 62 % with the title in it, a rule under it.
    const panel = { x: 0, y: safe.y - size.height * 0.03, w: size.width, h: safe.h * 0.62 };
    const old = [
      { kind: 'shape' as const, box: panel },
      { kind: 'shape' as const, box: { ...panel, y: panel.y + panel.h, h: 3 } },
      { kind: 'text' as const, box: { x: 80, y: panel.y + panel.h * 0.3, w: 300, h: 120 } },
    ];
    expect(problems(old, safe, size)).toEqual(['empty bottom', 'words in one half']);
    // And a title pushed into the captions.
    const low = [
      { kind: 'text' as const, box: { x: 80, y: safe.y, w: 300, h: size.height * 0.8 } },
    ];
    expect(problems(low, safe, size)).toEqual(['in the caption band']);
  });
});
