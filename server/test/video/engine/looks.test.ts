import { describe, expect, it } from '@jest/globals';
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { defaultSize } from '../../../src/video/engine/compose';
import { CJK_FONT_FAMILY } from '../../../src/video/engine/fonts';
import { ensureFonts } from '../../../src/video/engine/frames/render-frame';
import { drawShotImage } from '../../../src/video/pipelines/kit/draw';
import { LAYOUT_IDS, layoutAt } from '../../../src/video/engine/looks/layouts';
import {
  TEXT_INSET,
  composeLocalPicture,
  keyPhrase,
  type LocalPictureInput,
} from '../../../src/video/engine/looks/render';
import { sceneLook } from '../../../src/video/engine/looks/theme';
import type { RoleLook } from '../../../src/video/pipelines/kit/prompt';

const signal = () => new AbortController().signal;

/** The bounding box of the pixels that differ between two canvases of one size; null if none. */
function changedBox(a: Canvas, b: Canvas) {
  const { width, height } = a;
  const pa = a.getContext('2d').getImageData(0, 0, width, height).data;
  const pb = b.getContext('2d').getImageData(0, 0, width, height).data;
  const wa = new Uint32Array(pa.buffer, pa.byteOffset, width * height);
  const wb = new Uint32Array(pb.buffer, pb.byteOffset, width * height);
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

  it('takes the key phrase from the keywords, role names left to the tags', () => {
    const phrase = keyPhrase('沈清辞撑着油纸伞，独自站在太和殿外的石阶上。', '', ['沈清辞']);
    expect(phrase.title).not.toContain('沈清辞');
    expect(phrase.title.length).toBeGreaterThanOrEqual(2);
    expect(phrase.tagline.length).toBeGreaterThan(0);
    // No keyword: a short clause of the caption.
    expect(keyPhrase('她咬了咬唇，终究还是跟了上去。', '', []).title).toBe('她咬了咬唇');
  });
});
