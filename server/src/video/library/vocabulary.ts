import type { VocabularyItem } from '@kol/shared-sdk/contracts';

/**
 * Words a short-video platform may flag in a narration (get_vocabulary), each with a safer
 * wording: absolute claims the advertising law forbids, medical and financial promises, and
 * words that send viewers off the platform. `unlessFollowedBy` keeps common phrases that only
 * contain the word (第一次, 第一章) from being flagged.
 */
interface Term extends VocabularyItem {
  unlessFollowedBy?: string;
}

const TERMS: readonly Term[] = [
  // Absolute claims (广告法极限词).
  { word: '最好', replacement: '很好', unlessFollowedBy: '的朋友|是|不要|别|还是' },
  { word: '最佳', replacement: '优选' },
  { word: '最强', replacement: '很强' },
  { word: '最便宜', replacement: '实惠' },
  { word: '最低价', replacement: '优惠价' },
  { word: '最高级', replacement: '高品质' },
  {
    word: '第一',
    replacement: '领先',
    unlessFollowedBy:
      '次|章|集|天|步|眼|回|年|个|人称|时间|印象|反应|句|件|位|部|季|期|页|节|篇|层|排|名字|口',
  },
  { word: '全网第一', replacement: '广受好评' },
  { word: '销量第一', replacement: '热销' },
  { word: '排名第一', replacement: '名列前茅' },
  { word: 'NO.1', replacement: '热门之选' },
  { word: '国家级', replacement: '专业级' },
  { word: '世界级', replacement: '高水准' },
  { word: '顶级', replacement: '高端' },
  { word: '唯一', replacement: '少有' },
  { word: '独家', replacement: '特色' },
  { word: '首选', replacement: '推荐' },
  { word: '史无前例', replacement: '少见' },
  { word: '绝对', replacement: '非常' },
  { word: '万能', replacement: '多用途' },
  { word: '100%', replacement: '高比例' },
  { word: '100%有效', replacement: '效果明显' },
  { word: '百分之百', replacement: '非常' },
  { word: '永久', replacement: '长期' },
  { word: '零风险', replacement: '风险较低' },
  { word: '无副作用', replacement: '温和' },
  // Medical promises.
  { word: '根治', replacement: '改善' },
  { word: '包治百病', replacement: '调理' },
  { word: '药到病除', replacement: '有助缓解' },
  { word: '祖传秘方', replacement: '传统配方' },
  { word: '永不复发', replacement: '长期改善' },
  { word: '立竿见影', replacement: '见效较快' },
  { word: '抗癌', replacement: '健康' },
  { word: '减肥神器', replacement: '轻食好物' },
  { word: '医生推荐', replacement: '口碑推荐' },
  // Financial promises.
  { word: '稳赚不赔', replacement: '理性投资' },
  { word: '稳赚', replacement: '有机会收益' },
  { word: '保本保息', replacement: '风险自担' },
  { word: '保证收益', replacement: '收益不确定' },
  { word: '躺赚', replacement: '轻松经营' },
  { word: '暴富', replacement: '增收' },
  { word: '一夜暴富', replacement: '增收' },
  { word: '月入过万', replacement: '增加收入' },
  { word: '日赚', replacement: '收入' },
  { word: '高回报', replacement: '回报' },
  // Sending viewers off the platform.
  { word: '加微信', replacement: '关注我' },
  { word: '加我微信', replacement: '关注我' },
  { word: '微信号', replacement: '主页' },
  { word: '加V', replacement: '关注我' },
  { word: '加vx', replacement: '关注我' },
  { word: 'VX', replacement: '主页' },
  { word: '加群', replacement: '关注我' },
  { word: 'QQ群', replacement: '粉丝群' },
  { word: '私聊我', replacement: '评论区留言' },
  { word: '扫码', replacement: '点击主页' },
  { word: '二维码', replacement: '主页' },
  { word: '手机号', replacement: '主页' },
  { word: '淘宝', replacement: '商品橱窗' },
  { word: '拼多多', replacement: '商品橱窗' },
  // Inducements platforms limit.
  { word: '免费领取', replacement: '了解详情' },
  { word: '点击链接', replacement: '查看详情' },
  { word: '秒杀', replacement: '限时优惠' },
];

/** get_vocabulary: every term and its safer wording. */
export function vocabularyList(): VocabularyItem[] {
  return TERMS.map(({ word, replacement }) => ({ word, replacement }));
}

export interface FlaggedTerm {
  word: string;
  replacement: string;
  /** Where the match starts in the text (UTF-16 index, as String.slice counts). */
  index: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One regular expression for the whole list: longer words first, so at one position the longer
 * word wins (全网第一 over 第一, 100%有效 over 100%). Latin letters match in any case (vx, VX).
 * A scan is one pass over the text, whatever the list's size.
 */
const BY_LENGTH = [...TERMS].sort((a, b) => b.word.length - a.word.length);
const PATTERN = new RegExp(
  BY_LENGTH.map(
    (t) => `${escape(t.word)}${t.unlessFollowedBy ? `(?!${t.unlessFollowedBy})` : ''}`,
  ).join('|'),
  'giu',
);
const BY_WORD = new Map(TERMS.map((t) => [t.word.toLowerCase(), t]));

/**
 * The flagged terms of a text, in order, without overlaps (a longer term hides the shorter ones
 * inside it). The script stages call this before rendering.
 */
export function findFlaggedTerms(text: string): FlaggedTerm[] {
  const found: FlaggedTerm[] = [];
  for (const match of text.matchAll(PATTERN)) {
    const term = BY_WORD.get(match[0].toLowerCase());
    if (term) found.push({ word: term.word, replacement: term.replacement, index: match.index });
  }
  return found;
}

/**
 * The refusal of a text with flagged terms, naming each (at most 8) and its replacement, or null
 * when there is none. `action` says what the user was about to do (生成, 合成).
 */
export function flaggedTermsMessage(text: string, where: string, action: string): string | null {
  const flagged = findFlaggedTerms(text);
  if (flagged.length === 0) return null;
  const words = [...new Map(flagged.map((term) => [term.word, term])).values()]
    .slice(0, 8)
    .map(
      (term) => `「${term.word}」${term.replacement ? `（可改为「${term.replacement}」）` : ''}`,
    );
  return `${where}中有平台可能限流的词：${words.join('、')}，请修改后再${action}`;
}
