import { beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { TemplateId } from '@kol/shared-sdk';
import { demoUser, renderWithHost } from '@kol/shared-sdk/testing';
import { ResultActions } from '../result-actions';

beforeEach(() => {
  sessionStorage.clear();
});

function renderActions(templateIds: number[]) {
  return renderWithHost(
    <ResultActions text="深夜，旧飞船醒了。" defaultTitle="星河旧梦 第一章 醒来" />,
    { route: '/generate', user: demoUser({ templateIds }) },
  );
}

describe('发送到视频', () => {
  it('asks which video type to make, among the text types the template ids allow', async () => {
    renderActions([TemplateId.myCopy, TemplateId.anime, TemplateId.scroll, TemplateId.market]);
    fireEvent.click(screen.getByTestId('send-to-video'));
    const list = await screen.findByTestId('video-types');
    // Market videos start from a template, not a text; comic clips are not allowed.
    expect(
      within(list)
        .getAllByRole('button')
        .map((button) => button.querySelector('strong')?.textContent),
    ).toEqual(['AI漫剧', '滚屏视频']);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/generate$/);
  });

  it("hands the text and the book's title to the chosen type's first step", async () => {
    renderActions([TemplateId.comics, TemplateId.anime]);
    fireEvent.click(screen.getByTestId('send-to-video'));
    fireEvent.click(await screen.findByRole('button', { name: /^AI漫剧/ }));
    expect(JSON.parse(sessionStorage.getItem('KOL_VIDEO_HANDOVER') ?? 'null')).toEqual({
      type: 11,
      text: '深夜，旧飞船醒了。',
      title: '星河旧梦 第一章 醒来',
    });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/video\/animeInspiration$/);
  });

  it('says so when no video type that starts from a text is allowed', async () => {
    renderActions([TemplateId.myCopy, TemplateId.convert]);
    fireEvent.click(screen.getByTestId('send-to-video'));
    expect(await screen.findByText(/还没有开通可以用文案制作的视频类型/)).toBeInTheDocument();
  });
});
