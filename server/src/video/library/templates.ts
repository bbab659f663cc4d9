import { MARKET_TEMPLATES, type VideoTemplate } from '@kol/shared-sdk/contracts';

/**
 * The marketing templates are the SDK's (`shared-sdk/src/market.ts`): the page estimates a
 * video's length from the same script the server speaks.
 */
export {
  MARKET_TEMPLATES,
  findMarketTemplate,
  type MarketTemplate,
  type TemplateField,
  type TemplateValues,
} from '@kol/shared-sdk/contracts';

/** get_templates: the templates as the contract lists them (no cover pictures are shipped). */
export function templateList(): VideoTemplate[] {
  return MARKET_TEMPLATES.map(({ id, name, description, fields }) => ({
    id,
    name,
    description,
    coverUrl: '',
    fields: fields.map((field) => ({ ...field })),
  }));
}
