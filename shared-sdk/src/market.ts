import { estimateNarrationMs, type SpeechEstimateOptions } from './speech-estimate';
import { splitSentences } from './text/sentences';
import { cleanScript } from './text/clean-script';

/**
 * The marketing video (type 4): its built-in templates and how a pitch becomes the narration,
 * written once for the server (which speaks it) and the page (which shows its length before
 * anything is spent). The contract's `VideoTemplate` is what `get_templates` lists of them.
 */

/** Spoken and drawn when the user gave no call to action of their own. */
export const DEFAULT_CALL_TO_ACTION = '立即了解';

export interface TemplateField {
  key: string;
  label: string;
  required: boolean;
}

/** The values a user filled in, by field key (settings.templateFields); missing ones are ''. */
export type TemplateValues = Record<string, string>;

/**
 * A marketing template (type 4, `settings.templateId`): the fields the user fills in and the
 * script pattern that turns them into narration, one sentence per array item.
 */
export interface MarketTemplate {
  id: number;
  name: string;
  description: string;
  fields: TemplateField[];
  /** The field naming what is sold (the end card shows it). */
  nameField: string;
  /** The narration, sentence by sentence; optional fields that are empty leave their sentence out. */
  script(values: TemplateValues): string[];
}

const v = (values: TemplateValues, key: string): string => (values[key] ?? '').trim();

/** The sentences that have something in them (a template leaves empty optional parts out). */
const keep = (...sentences: Array<string | false>): string[] =>
  sentences.filter((s): s is string => typeof s === 'string' && s.trim() !== '');

/** Selling points written "a，b；c" or one per line: said one after another. */
function points(text: string): string[] {
  return text
    .split(/[\n；;，,、]+/)
    .map((p) => p.trim().replace(/[。！!]+$/, ''))
    .filter(Boolean);
}

const cta = (values: TemplateValues, fallback: string) => v(values, 'callToAction') || fallback;

const CALL_TO_ACTION: TemplateField = { key: 'callToAction', label: '行动号召', required: false };

export const MARKET_TEMPLATES: readonly MarketTemplate[] = [
  {
    id: 1,
    name: '好物种草',
    description: '一款产品的卖点讲解：痛点、卖点、优惠，再加一句行动号召',
    fields: [
      { key: 'product', label: '产品名称', required: true },
      { key: 'audience', label: '适合人群', required: false },
      { key: 'sellingPoints', label: '核心卖点', required: true },
      { key: 'offer', label: '价格与优惠', required: false },
      CALL_TO_ACTION,
    ],
    nameField: 'product',
    script(values) {
      const product = v(values, 'product');
      const audience = v(values, 'audience');
      const list = points(v(values, 'sellingPoints'));
      return keep(
        audience ? `${audience}看过来！` : '今天给大家分享一个好东西。',
        `这就是${product}。`,
        ...list.map(
          (point, i) => `${i === 0 ? '首先' : i === list.length - 1 ? '还有' : '另外'}，${point}。`,
        ),
        v(values, 'offer') && `现在${v(values, 'offer')}。`,
        `${cta(values, '喜欢的话赶快去看看吧')}！`,
      );
    },
  },
  {
    id: 2,
    name: '小说推广',
    description: '一本书的悬念式推荐：题材、主角、看点，引导去读',
    fields: [
      { key: 'book', label: '书名', required: true },
      { key: 'genre', label: '题材', required: false },
      { key: 'hero', label: '主角', required: false },
      { key: 'hook', label: '故事看点', required: true },
      { key: 'platform', label: '阅读平台', required: false },
      CALL_TO_ACTION,
    ],
    nameField: 'book',
    script(values) {
      const book = v(values, 'book');
      const genre = v(values, 'genre');
      const hero = v(values, 'hero');
      return keep(
        `最近熬夜看完了一本${genre ? `${genre}小说` : '小说'}，真的停不下来。`,
        hero && `主角叫${hero}。`,
        ...points(v(values, 'hook')).map((p) => `${p}。`),
        `接下来会发生什么？书名叫《${book.replace(/^《|》$/g, '')}》。`,
        v(values, 'platform') && `在${v(values, 'platform')}就能看到。`,
        `${cta(values, '想知道结局的快去看吧')}！`,
      );
    },
  },
  {
    id: 3,
    name: '门店探店',
    description: '一家店的探店介绍：位置、招牌、环境与人均',
    fields: [
      { key: 'shop', label: '店名', required: true },
      { key: 'location', label: '位置', required: false },
      { key: 'specialty', label: '招牌推荐', required: true },
      { key: 'price', label: '人均价格', required: false },
      CALL_TO_ACTION,
    ],
    nameField: 'shop',
    script(values) {
      const location = v(values, 'location');
      return keep(
        `${location ? `在${location}，` : ''}发现了一家宝藏小店：${v(values, 'shop')}。`,
        ...points(v(values, 'specialty')).map((p, i) => `${i === 0 ? '招牌是' : '还有'}${p}。`),
        v(values, 'price') && `人均${v(values, 'price')}，性价比很高。`,
        `${cta(values, '周末约上朋友一起来吧')}！`,
      );
    },
  },
  {
    id: 4,
    name: '课程招生',
    description: '一门课程的招生介绍：适合谁、能学到什么、报名优惠',
    fields: [
      { key: 'course', label: '课程名称', required: true },
      { key: 'audience', label: '适合人群', required: true },
      { key: 'outcomes', label: '学习收获', required: true },
      { key: 'offer', label: '报名优惠', required: false },
      CALL_TO_ACTION,
    ],
    nameField: 'course',
    script(values) {
      return keep(
        `如果你是${v(values, 'audience')}，这门课值得了解一下。`,
        `《${v(values, 'course').replace(/^《|》$/g, '')}》，`,
        ...points(v(values, 'outcomes')).map((p) => `带你${p.replace(/^带你/, '')}。`),
        v(values, 'offer') && `现在报名，${v(values, 'offer')}。`,
        `${cta(values, '名额有限，快来报名吧')}！`,
      );
    },
  },
  {
    id: 5,
    name: '活动促销',
    description: '一场活动的促销预告：时间、力度、参与方式',
    fields: [
      { key: 'event', label: '活动名称', required: true },
      { key: 'time', label: '活动时间', required: true },
      { key: 'offer', label: '优惠力度', required: true },
      { key: 'howTo', label: '参与方式', required: false },
      CALL_TO_ACTION,
    ],
    nameField: 'event',
    script(values) {
      return keep(
        `好消息！${v(values, 'event')}来了。`,
        `时间是${v(values, 'time')}。`,
        ...points(v(values, 'offer')).map((p) => `${p}。`),
        v(values, 'howTo') && `参与方式很简单：${v(values, 'howTo')}。`,
        `${cta(values, '千万别错过')}！`,
      );
    },
  },
];

export function findMarketTemplate(id: number | null | undefined): MarketTemplate | null {
  return MARKET_TEMPLATES.find((template) => template.id === id) ?? null;
}

const hasWords = (text: string) => /[\p{L}\p{N}]/u.test(text);
/** A sentence's words only, to compare a script's last sentence with the call to action. */
const bare = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, '');

/** What a marketing work says, before any check of it (the server refuses what is missing). */
export interface MarketNarration {
  /** Whose words the pitch is: the work's own text, or the template's from its fields. */
  source: 'work' | 'template';
  /** The pitch sentence by sentence, without the call to action (said once, last). */
  body: string[];
  /** The call as the end card draws it: the work's own, else the field's, else the default. */
  callToAction: string;
  /** What the end card names: the template's name field ('' when empty). */
  productName: string;
}

/**
 * The narration of a marketing work: the user's own text when it has words (they edited what
 * the template wrote), else the template's script from the fields; the call to action taken off
 * its end when the script already ends with it, since the end card says it last.
 */
export function marketNarration(input: {
  template: MarketTemplate;
  fields: Readonly<Record<string, string>>;
  /** The work's text ('' when the template writes the script). */
  text: string;
  /** The work's own call to action (`settings.callToAction`). */
  callToAction?: string | null | undefined;
}): MarketNarration {
  const fields: TemplateValues = {};
  for (const [key, value] of Object.entries(input.fields))
    fields[key] = cleanScript(value).replace(/\n/g, ' ');
  const callToAction =
    cleanScript(input.callToAction ?? '').replace(/\n/g, ' ') ||
    fields.callToAction ||
    DEFAULT_CALL_TO_ACTION;
  const own = cleanScript(input.text);
  const source = hasWords(own) ? 'work' : 'template';
  const body = splitSentences(
    source === 'work'
      ? own
      : cleanScript(input.template.script({ ...fields, callToAction }).join('\n')),
  );
  if (body.length > 0 && bare(body.at(-1) ?? '') === bare(callToAction)) body.pop();
  return { source, body, callToAction, productName: fields[input.template.nameField] ?? '' };
}

/** The call to action as it is spoken: with an exclamation, so it ends as a sentence. */
export function spokenCallToAction(callToAction: string): string {
  return /[。！？!?]$/.test(callToAction) ? callToAction : `${callToAction}！`;
}

/**
 * The length of a marketing video: the pitch, then the call to action over the end card (the
 * card lasts exactly as long as the call is spoken), one narration with the sentence pauses.
 */
export function estimateMarketMs(
  narration: MarketNarration,
  options: SpeechEstimateOptions = {},
): number {
  if (narration.body.length === 0) return 0;
  return estimateNarrationMs(
    [...narration.body, spokenCallToAction(narration.callToAction)],
    options,
  );
}
