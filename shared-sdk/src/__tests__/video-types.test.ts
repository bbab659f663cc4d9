import { afterEach, describe, expect, it } from '@jest/globals';
import { ProjectType } from '../enums';
import { sessionStore } from '../storage';
import { VIDEO_TYPES, handOverToVideo, videoHandoverFor } from '../video-types';

afterEach(() => sessionStorage.clear());

function entryOf(type: ProjectType) {
  const entry = VIDEO_TYPES.find((item) => item.type === type);
  if (!entry) throw new Error(`no video type ${type}`);
  return entry;
}

describe('发送到视频 hand-over', () => {
  it('offers the types whose first step starts from a text', () => {
    expect(VIDEO_TYPES.filter((entry) => entry.takesText).map((entry) => entry.type)).toEqual([
      ProjectType.comics,
      ProjectType.comicsOverseas,
      ProjectType.animeShorts,
      ProjectType.decompression,
      ProjectType.decompressionOverseas,
      ProjectType.scroll,
    ]);
  });

  it("keeps the text and title for the chosen type's first step and answers its path", () => {
    const path = handOverToVideo(entryOf(ProjectType.scroll), '正文', '书名 第一章');
    expect(path).toBe('/video/scroll');
    expect(sessionStorage.getItem('KOL_VIDEO_HANDOVER')).toBe(
      JSON.stringify({ type: ProjectType.scroll, text: '正文', title: '书名 第一章' }),
    );
    expect(videoHandoverFor(ProjectType.scroll)).toEqual({
      type: ProjectType.scroll,
      text: '正文',
      title: '书名 第一章',
    });
    // Another type's first step does not take it.
    expect(videoHandoverFor(ProjectType.comics)).toBeNull();
  });

  it('does not trust a value of another shape', () => {
    sessionStorage.setItem('KOL_VIDEO_HANDOVER', JSON.stringify({ type: 0, text: 12 }));
    expect(videoHandoverFor(ProjectType.comics)).toBeNull();
    sessionStore.set('videoHandover', { type: 0, text: '正文' } as never);
    expect(videoHandoverFor(ProjectType.comics)).toEqual({ type: 0, text: '正文', title: '' });
  });
});
