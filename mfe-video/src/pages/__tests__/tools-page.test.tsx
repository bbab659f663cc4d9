import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { demoUser, renderWithHost } from '@kol/shared-sdk/testing';
import { ToolsPage } from '../tools-page';

const tool = (name: string) => screen.getByRole('group', { name });

describe('/video/tool', () => {
  it.each([
    ['文字转语音', '/tts'],
    ['分镜字幕', '/video/configuration?videoType=0'],
    ['AI 画面', '/video/configuration?videoType=0'],
    ['视频去重', '/video/cutDuplicates/config'],
  ])('leads %s to %s', (name, path) => {
    renderWithHost(<ToolsPage />, {
      route: '/video/tool?type=tools',
      user: demoUser({ templateIds: [1, 5], functionalLevel: 1 }),
    });
    fireEvent.click(within(tool(name)).getByLabelText(`打开${name}`));
    expect(screen.getByTestId('location')).toHaveTextContent(path);
  });

  it('keeps ?type=tools for the host menu, and disables what the account lacks', () => {
    renderWithHost(<ToolsPage />, {
      route: '/video/tool?type=tools',
      user: demoUser({ templateIds: [0], functionalLevel: 0 }),
    });
    expect(screen.getByTestId('location')).toHaveTextContent('/video/tool?type=tools');
    expect(within(tool('视频去重')).getByLabelText('打开视频去重')).toBeDisabled();
    expect(within(tool('分镜字幕')).getByText('你的账号还没有开通这个工具')).toBeInTheDocument();
    expect(within(tool('文字转语音')).getByLabelText('打开文字转语音')).toBeEnabled();
  });
});
