import { operaSession, type OperaDraftScene } from '../flows/drama/draft';
import { OPERA_TYPE, scriptText, type KeptOperaDraft } from '../flows/drama/opera-flow';

/** A scene of a test drama: its lines as [speaker, text], and its media if uploaded. */
export function demoScene(
  key: string,
  lines: Array<[speaker: string, text: string]>,
  media: Partial<Pick<OperaDraftScene, 'mediaUrl' | 'mediaKind' | 'mediaName'>> = {},
): OperaDraftScene {
  return {
    key,
    mediaUrl: '',
    mediaKind: '',
    mediaName: '',
    ...media,
    lines: lines.map(([speaker, text], i) => ({ key: `${key}-${i}`, speaker, text })),
  };
}

/**
 * A saved drama (work 31) in the session, as the configuration page leaves it: with the work as
 * it saved it (revision 1 unless given), the base of the next save over it.
 */
export function storeDemoDraft(overrides: Partial<KeptOperaDraft> = {}): KeptOperaDraft {
  const draft: KeptOperaDraft = {
    workId: 31,
    title: '雨夜重逢',
    settings: { aspect: '9:16', captionStyle: 'classic', speed: 1 },
    scenes: [
      demoScene('a', [
        ['小明', '你好。'],
        ['小红', '好久不见。'],
      ]),
      demoScene('b', [['小明', '我们走吧。']]),
    ],
    ...overrides,
  };
  draft.saved ??= {
    workId: 31,
    revision: 1,
    type: OPERA_TYPE,
    title: draft.title,
    text: scriptText(draft.scenes),
    settings: draft.settings,
  };
  operaSession.set('operaDraft', draft);
  return draft;
}
