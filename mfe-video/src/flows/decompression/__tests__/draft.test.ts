import { afterEach, describe, expect, it } from '@jest/globals';
import { DEFAULT_DECOMPRESSION_DRAFT, decompressionStore } from '../decompression-flow';
import { decompressionDraftName } from '../draft';

afterEach(() => sessionStorage.clear());

describe('the decompression draft', () => {
  it('keeps the domestic and the overseas input apart, under their KOL_ keys', () => {
    expect(decompressionDraftName(false)).toBe('decompressionDraft');
    expect(decompressionDraftName(true)).toBe('decompressionDraftOversea');
    decompressionStore(false).setDraft({ ...DEFAULT_DECOMPRESSION_DRAFT, text: '深呼吸。' });
    decompressionStore(true).setDraft({ ...DEFAULT_DECOMPRESSION_DRAFT, text: 'Breathe in.' });
    expect(JSON.parse(sessionStorage.getItem('KOL_DECOMPRESSION_DRAFT') ?? 'null')).toMatchObject({
      text: '深呼吸。',
    });
    expect(
      JSON.parse(sessionStorage.getItem('KOL_DECOMPRESSION_DRAFT_OVERSEA') ?? 'null'),
    ).toMatchObject({ text: 'Breathe in.' });
    expect(decompressionStore(false).draft().text).toBe('深呼吸。');
    expect(decompressionStore(true).draft().text).toBe('Breathe in.');
  });
});
