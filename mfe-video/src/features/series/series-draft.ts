import {
  sessionValues,
  type SeriesNarration,
  type SeriesPlanBody,
  type SeriesType,
  type VideoSettings,
} from '@kol/shared-sdk';

/**
 * The new-series form as the creator left it (`KOL_SERIES_DRAFT`): a reload, or a look at
 * another page, loses nothing. The series itself lives on the server once created.
 */
export interface SeriesDraft {
  /** Videos, or copy only (one promotional text per chapter into My copy). */
  output?: 'video' | 'copy';
  type: SeriesType;
  source: 'book' | 'works';
  bookId: number | null;
  /** 1-based, both included. */
  fromChapter: number;
  toChapter: number;
  workIds: number[];
  narration: SeriesNarration;
  settings: Pick<
    VideoSettings,
    'aspect' | 'imageStyleId' | 'voiceId' | 'speed' | 'musicId' | 'captionStyle'
  >;
  title: string;
  /** The plan's titles as the creator edited them; empty until planned. */
  episodeTitles: string[];
  /**
   * The idempotency key of creating this draft's series, kept until it is created: 创建系列
   * again after a lost answer, even after a reload, gets that series back.
   */
  createKey?: string;
  /** Copy only: the tweets task writing it, and the works its texts were saved as. */
  copyTaskId?: string;
  copySaved?: number[];
}

interface SeriesSessionValues {
  seriesDraft: SeriesDraft;
}

export const seriesSession = sessionValues<SeriesSessionValues>();

export const EMPTY_SERIES_DRAFT: SeriesDraft = {
  type: 0,
  source: 'book',
  bookId: null,
  fromChapter: 1,
  toChapter: 3,
  workIds: [],
  narration: 'chapter',
  settings: { aspect: '9:16', speed: 1, captionStyle: 'classic' },
  title: '',
  episodeTitles: [],
};

/** What the server is asked to plan; null while the source is not chosen. */
export function planBodyOf(draft: SeriesDraft): SeriesPlanBody | null {
  if (draft.source === 'book') {
    if (draft.bookId === null) return null;
    return {
      type: draft.type,
      narration: draft.narration,
      source: {
        kind: 'book',
        bookId: draft.bookId,
        fromChapter: draft.fromChapter,
        toChapter: draft.toChapter,
      },
    };
  }
  if (draft.workIds.length === 0) return null;
  return {
    type: draft.type,
    narration: draft.narration,
    source: { kind: 'works', workIds: draft.workIds },
  };
}
