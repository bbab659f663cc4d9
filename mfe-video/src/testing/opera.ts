import { sessionStore, type OperaDraft, type OperaDraftScene } from '@kol/shared-sdk';

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

/** A saved drama (work 31) in the session, as the configuration page leaves it. */
export function storeDemoDraft(overrides: Partial<OperaDraft> = {}): OperaDraft {
  const draft: OperaDraft = {
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
  sessionStore.set('operaDraft', draft);
  return draft;
}
