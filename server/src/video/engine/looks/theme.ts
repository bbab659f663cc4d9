import type { FramePalette } from '../frames/render-frame';

/** A colour as hue (degrees), saturation and lightness (percent): styles shift these. */
export type Hsl = readonly [number, number, number];

/** The procedural textures a theme lays over its background (texture.ts draws them). */
export type TextureId =
  | 'stars'
  | 'rain'
  | 'waves'
  | 'windows'
  | 'lattice'
  | 'mountains'
  | 'snow'
  | 'embers'
  | 'blinds'
  | 'chalk'
  | 'paper';

export interface Theme {
  id: string;
  /** Background gradient, top to bottom. */
  sky: Hsl;
  ground: Hsl;
  /** The title's colour. */
  ink: Hsl;
  /** Rules, seals and name tags. */
  accent: Hsl;
  texture: TextureId;
}

/**
 * Scene words to themes. A scene scores every theme by how many of its words it names, so
 * 「雨夜，太和殿外」 is a palace first (two words) with rain laid over it (see sceneLook).
 * 城 alone is too ambiguous (京城, 皇城 are old capitals): the city takes modern words.
 */
const THEMES: ReadonlyArray<Theme & { words: RegExp }> = [
  {
    id: 'palace',
    words: /宫|殿|皇|龙椅|御|朝堂|王府|京城|城楼|宫城|圣旨|陛下|太子|王爷/gu,
    sky: [358, 62, 16],
    ground: [8, 70, 30],
    ink: [42, 78, 74],
    accent: [40, 72, 56],
    texture: 'lattice',
  },
  {
    id: 'night',
    words: /夜|月|星|深夜|黑暗|三更|午夜|夜色/gu,
    sky: [228, 58, 8],
    ground: [222, 45, 24],
    ink: [40, 55, 90],
    accent: [42, 70, 62],
    texture: 'stars',
  },
  {
    id: 'rain',
    words: /雨|雷|闪电|电闪|阴云|乌云/gu,
    sky: [208, 28, 12],
    ground: [205, 22, 30],
    ink: [200, 30, 94],
    accent: [198, 55, 64],
    texture: 'rain',
  },
  {
    id: 'sea',
    words: /海|浪|江|湖|河|潮|岸边|码头|船/gu,
    sky: [205, 80, 12],
    ground: [200, 75, 36],
    ink: [195, 40, 95],
    accent: [190, 85, 60],
    texture: 'waves',
  },
  {
    id: 'city',
    words: /城市|都市|街|高楼|大楼|霓虹|马路|地铁|公寓|酒吧/gu,
    sky: [262, 55, 9],
    ground: [285, 45, 24],
    ink: [0, 0, 98],
    accent: [330, 95, 62],
    texture: 'windows',
  },
  {
    id: 'forest',
    words: /林|树|山|竹|草|峰|谷|溪/gu,
    sky: [150, 35, 10],
    ground: [120, 28, 28],
    ink: [80, 35, 90],
    accent: [75, 55, 55],
    texture: 'mountains',
  },
  {
    id: 'snow',
    words: /雪|冰|寒冬|冬|霜/gu,
    sky: [210, 30, 88],
    ground: [205, 25, 96],
    ink: [215, 40, 16],
    accent: [355, 70, 42],
    texture: 'snow',
  },
  {
    id: 'fire',
    words: /火|焰|烈|血|战场|厮杀|燃|夕阳|黄昏|晚霞/gu,
    sky: [10, 80, 7],
    ground: [16, 85, 28],
    ink: [36, 90, 86],
    accent: [24, 95, 55],
    texture: 'embers',
  },
  {
    id: 'office',
    words: /公司|办公室|会议|总裁|职场|老板|合同|项目/gu,
    sky: [212, 18, 92],
    ground: [212, 16, 80],
    ink: [222, 55, 16],
    accent: [220, 80, 52],
    texture: 'blinds',
  },
  {
    id: 'school',
    words: /学校|教室|校园|操场|同学|老师|班级|考试|课/gu,
    sky: [150, 32, 16],
    ground: [148, 30, 24],
    ink: [48, 30, 92],
    accent: [44, 85, 62],
    texture: 'chalk',
  },
];

/** No scene word: rice paper and black ink, a red seal. */
export const NEUTRAL: Theme = {
  id: 'neutral',
  sky: [40, 38, 92],
  ground: [36, 30, 80],
  ink: [30, 10, 12],
  accent: [4, 70, 42],
  texture: 'paper',
};

/** Weather laid over another theme's texture when the scene names it too, rain first. */
const WEATHER: readonly TextureId[] = ['rain', 'snow', 'stars'];

export interface SceneLook {
  theme: Theme;
  /** The theme's texture, then the weather named besides (rain over a palace). */
  textures: TextureId[];
}

const score = (text: string, words: RegExp) => text.match(words)?.length ?? 0;

/** The look of a scene from its words; the neutral paper when it names none. */
export function sceneLook(text: string): SceneLook {
  const ranked = THEMES.map((theme, order) => ({ theme, order, hits: score(text, theme.words) }))
    .filter((entry) => entry.hits > 0)
    .sort((a, b) => b.hits - a.hits || a.order - b.order);
  const first = ranked[0]?.theme;
  if (!first) return { theme: NEUTRAL, textures: [NEUTRAL.texture] };
  const named = ranked.map((entry) => entry.theme.texture);
  const weather = WEATHER.find((texture) => texture !== first.texture && named.includes(texture));
  if (!weather) return { theme: first, textures: [first.texture] };
  // A rainy or snowy night keeps the night's colours but has no stars.
  if (first.texture === 'stars') return { theme: first, textures: [weather] };
  return { theme: first, textures: [first.texture, weather] };
}

/** An image style's palette applied to a colour (the same rule as the plain frames). */
export function css(color: Hsl, palette: FramePalette | undefined, alpha = 1): string {
  const [h, s, l] = color;
  const sat = Math.min(100, Math.max(0, s * (palette?.saturation ?? 1)));
  const light = Math.min(97, Math.max(3, l + (palette?.lightness ?? 0)));
  return `hsla(${Math.round(h)}, ${Math.round(sat)}%, ${Math.round(light)}%, ${alpha})`;
}

/** A theme with a style's own hues, when it names them (赛博朋克 is always neon). */
export function styled(theme: Theme, palette: FramePalette | undefined): Theme {
  const hues = palette?.hues;
  if (!hues) return theme;
  return {
    ...theme,
    sky: [hues[0], theme.sky[1], theme.sky[2]],
    ground: [hues[1], theme.ground[1], theme.ground[2]],
    accent: [hues[1], theme.accent[1], theme.accent[2]],
  };
}

/** Whether text on this theme is dark on light (snow, office, paper). */
export const isLight = (theme: Theme) => theme.sky[2] > 60;

/** Colour words of role descriptions (白衣, 玄袍, 红裙…), first found wins. */
const ROLE_COLOURS: ReadonlyArray<{ words: RegExp; color: Hsl }> = [
  { words: /玄|黑|墨/u, color: [230, 20, 22] },
  { words: /白|素|银/u, color: [210, 15, 62] },
  { words: /红|赤|绯|朱/u, color: [356, 68, 46] },
  { words: /青|绿|碧|翠/u, color: [165, 45, 36] },
  { words: /蓝|靛/u, color: [215, 60, 44] },
  { words: /紫/u, color: [275, 45, 46] },
  { words: /金|黄/u, color: [40, 70, 44] },
  { words: /粉|桃/u, color: [340, 60, 56] },
];

/** A role's colour: from its description's colour words, else from its name (stable). */
export function roleColor(name: string, description = ''): Hsl {
  const found = ROLE_COLOURS.find((entry) => entry.words.test(description));
  if (found) return found.color;
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 360;
  return [hash, 50, 44];
}
