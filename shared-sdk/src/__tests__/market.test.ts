import { describe, expect, it } from '@jest/globals';
import {
  DEFAULT_CALL_TO_ACTION,
  estimateMarketMs,
  findMarketTemplate,
  marketNarration,
  spokenCallToAction,
} from '../market';
import { estimateNarrationMs } from '../speech-estimate';

const template = findMarketTemplate(1);
if (!template) throw new Error('no template 1');
const fields = { product: '竹纤维毛巾', sellingPoints: '吸水快；不掉毛' };

describe('the narration of a marketing work', () => {
  it('is the template’s script from the fields, the call to action taken off to be said last', () => {
    const narration = marketNarration({ template, fields, text: '', callToAction: '马上抢购' });
    expect(narration).toEqual({
      source: 'template',
      body: [
        '今天给大家分享一个好东西。',
        '这就是竹纤维毛巾。',
        '首先，吸水快。',
        '还有，不掉毛。',
      ],
      callToAction: '马上抢购',
      productName: '竹纤维毛巾',
    });
    // No call anywhere: the default one.
    expect(marketNarration({ template, fields, text: '' }).callToAction).toBe(
      DEFAULT_CALL_TO_ACTION,
    );
    // The field's call when the work has none of its own.
    expect(
      marketNarration({ template, fields: { ...fields, callToAction: '点这里' }, text: '' })
        .callToAction,
    ).toBe('点这里');
  });

  it('is the work’s own text when it has words, cleaned and split as the server splits it', () => {
    const narration = marketNarration({
      template,
      fields,
      text: '  这款毛巾我用了一个月。\u200b\n\n真的好用。马上抢购！',
      callToAction: '马上抢购',
    });
    expect(narration.source).toBe('work');
    // Its own last sentence is the call: said once, over the end card.
    expect(narration.body).toEqual(['这款毛巾我用了一个月。', '真的好用。']);
  });

  it('lasts the pitch and the spoken call, with the pauses between', () => {
    const narration = marketNarration({ template, fields, text: '', callToAction: '马上抢购' });
    expect(spokenCallToAction('马上抢购')).toBe('马上抢购！');
    expect(spokenCallToAction('快来吧。')).toBe('快来吧。');
    const voice = { voiceId: 'espeak-cmn-m', speed: 1.3 };
    const ms = estimateMarketMs(narration, voice);
    expect(ms).toBe(estimateNarrationMs([...narration.body, '马上抢购！'], voice));
    expect(ms).toBeGreaterThan(estimateNarrationMs(narration.body, voice));
    expect(estimateMarketMs({ ...narration, body: [] })).toBe(0);
  });
});
