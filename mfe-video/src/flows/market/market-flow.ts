import { ProjectType, sessionStore, type VideoTemplate } from '@kol/shared-sdk';
import type { WithSaved } from '../../flow-kit/work-edits';
import { marketSession, type MarketDraft } from './draft';

/**
 * The marketing video's (type 4) flow: four steps in the address (`/video/market/:segment/:id`,
 * the work's id once it is made), the choices in session values: the spec's `KOL_TEMPLATE_ID`
 * and `KOL_TEMPLATE_CONTENT` (the fields filled in), and `KOL_MARKET_DRAFT` (pictures, voice,
 * music, call to action). A reload on any step loses nothing.
 */

export const MARKET_TYPE = ProjectType.market;

export const MARKET_SEGMENTS = ['template', 'content', 'pictures', 'voice'] as const;
export type MarketSegment = (typeof MARKET_SEGMENTS)[number];
export const MARKET_STEP_TITLES: Record<MarketSegment, string> = {
  template: '选择模板',
  content: '填写内容',
  pictures: '图片',
  voice: '配音与片尾',
};

/** The contract's limits (`VideoSettings`): 30 pictures, a call of 40, a field of 500 characters. */
export const MAX_MARKET_PICTURES = 30;
export const MAX_CALL_TO_ACTION_CHARS = 40;
export const MAX_FIELD_CHARS = 500;
/** The template field the server's call to action may also come from; asked on the last step. */
export const CALL_TO_ACTION_KEY = 'callToAction';

export function marketPath(segment: MarketSegment, workId: number | null): string {
  return `/video/market/${segment}${workId === null ? '' : `/${workId}`}`;
}

export function segmentOf(raw: string | undefined): MarketSegment {
  return (MARKET_SEGMENTS as readonly string[]).includes(raw ?? '')
    ? (raw as MarketSegment)
    : 'template';
}

export type MarketSettings = MarketDraft['settings'];

/** The draft with the work it was last read or saved as (the base of the next save over it). */
export type KeptMarketDraft = WithSaved<MarketDraft>;
export const DEFAULT_MARKET_SETTINGS: MarketSettings = { aspect: '9:16', speed: 1, imageUrls: [] };

export const marketStore = {
  draft: (): KeptMarketDraft | null => marketSession.get('marketDraft') as KeptMarketDraft | null,
  setDraft: (draft: KeptMarketDraft) => marketSession.set('marketDraft', draft),
  templateId: (): number | null => sessionStore.get('templateId'),
  setTemplateId: (id: number) => sessionStore.set('templateId', id),
  fields: (): Record<string, string> => sessionStore.get('templateContent') ?? {},
  setFields: (fields: Record<string, string>) => sessionStore.set('templateContent', fields),
};

/** The template's fields the content step asks for (the call to action is the last step's). */
export const contentFields = (template: VideoTemplate) =>
  template.fields.filter((f) => f.key !== CALL_TO_ACTION_KEY);

/** The required fields left empty, by label: a Chinese message naming them, or null. */
export function missingFieldsProblem(
  template: VideoTemplate,
  fields: Record<string, string>,
): string | null {
  const missing = template.fields
    .filter((f) => f.required && !/[\p{L}\p{N}]/u.test(fields[f.key] ?? ''))
    .map((f) => `「${f.label}」`);
  return missing.length > 0
    ? `请填写${missing.join('、')}（模板「${template.name}」的必填项）`
    : null;
}

/**
 * The end card's headline: the server shows the template's name field, which is each built-in
 * template's first field (the contract does not name it), else the work's title.
 */
export function productNameOf(template: VideoTemplate, fields: Record<string, string>): string {
  const first = template.fields[0];
  return (first && fields[first.key]?.trim()) || template.name;
}
