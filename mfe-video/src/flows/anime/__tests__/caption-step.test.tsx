import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { fakeBackendPerTest, ok, refuse, renderWithHost, settle } from '@kol/shared-sdk/testing';
import { estimateDialogueMs, formatDurationMs } from '@kol/shared-sdk';
import { animeBackend, animeUser } from '../../../testing/anime';
import { changeWork } from '../../../testing/backend';
import { parseScriptText, scriptGenders } from '../anime-script';
import { AnimeCaptionStep } from '../steps/caption-step';

const backend = fakeBackendPerTest();

const ROUTE = '/video/animeCaption?videoType=11&workId=31';
const render = () => renderWithHost(<AnimeCaptionStep />, { route: ROUTE, user: animeUser() });
const line = (n: number) => screen.getByLabelText(`第 ${n} 行的台词`);
const speaker = (n: number) => screen.getByLabelText(`第 ${n} 行的角色`);
const speakers = () =>
  within(screen.getByRole('list', { name: '角色台词统计' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('/video/animeCaption', () => {
  it('shows the script line by line with each speaker and how many lines they have', async () => {
    const { routes } = animeBackend();
    await backend.start(routes);
    render();
    expect(await screen.findByLabelText('第 3 行的台词')).toHaveValue('只剩一间。');
    expect(line(1)).toHaveValue('夜里，林舟走进客栈。');
    expect(speaker(2)).toHaveValue('林舟');
    expect(speakers()).toEqual(['旁白 · 1 行', '林舟 · 1 行', '掌柜 · 1 行']);
  });

  it('shows the short’s estimated length in the work’s voices, following each edit of the script', async () => {
    // The narrator speaks the work's voice and 林舟 chose the same one: the render speaks him
    // faster (the second speaker on a voice); 掌柜 gets the default of his gender.
    const { routes } = animeBackend({
      settings: {
        aspect: '9:16',
        voiceId: 'espeak-cmn-m',
        roleVoices: { 林舟: 'espeak-cmn-m' },
        speed: 1.3,
      },
    });
    await backend.start(routes);
    render();
    await screen.findByLabelText('第 3 行的台词');
    const chosen: Record<string, string> = { 旁白: 'espeak-cmn-m', 林舟: 'espeak-cmn-m' };
    const shown = (script: string) => {
      const lines = parseScriptText(script);
      const ms = estimateDialogueMs(
        lines.map((line) => ({ ...line, voiceId: chosen[line.speaker] ?? null })),
        { speed: 1.3, genderOf: scriptGenders(lines) },
      );
      return `预计时长 约 ${formatDurationMs(ms)}`;
    };
    const estimate = () => screen.getByTestId('video-estimate');
    expect(estimate()).toHaveTextContent(
      shown('旁白：夜里，林舟走进客栈。\n林舟：掌柜，还有房吗？\n掌柜：只剩一间。'),
    );

    const longer =
      '旁白：夜里，林舟走进客栈。\n林舟：掌柜，还有房吗？我走了一整天的山路，实在走不动了。\n掌柜：只剩一间。';
    fireEvent.change(line(2), {
      target: { value: '掌柜，还有房吗？我走了一整天的山路，实在走不动了。' },
    });
    expect(estimate()).toHaveTextContent(shown(longer));
    // The long line said by 掌柜 instead: in his voice, at his speed.
    const moved = longer.replace('林舟：掌柜', '掌柜：掌柜');
    expect(shown(moved)).not.toBe(shown(longer));
    fireEvent.change(speaker(2), { target: { value: '掌柜' } });
    expect(estimate()).toHaveTextContent(shown(moved));
  });

  it('saves each edit onto the work, so a reload shows it: text, speaker, added, moved and deleted lines', async () => {
    const { routes, state } = animeBackend();
    await backend.start(routes);
    const first = render();
    await screen.findByLabelText('第 3 行的台词');
    fireEvent.change(line(2), { target: { value: '掌柜，还有上房吗？' } });
    fireEvent.change(speaker(3), { target: { value: '林舟' } });
    fireEvent.click(screen.getByRole('button', { name: '在第 1 行下方添加' }));
    fireEvent.change(line(2), { target: { value: '雨越下越大。' } });
    fireEvent.click(screen.getByRole('button', { name: '下移第 1 行' }));
    await waitFor(() =>
      expect(state.work.text).toBe(
        '旁白：雨越下越大。\n旁白：夜里，林舟走进客栈。\n林舟：掌柜，还有上房吗？\n林舟：只剩一间。',
      ),
    );
    expect(speakers()).toEqual(['旁白 · 2 行', '林舟 · 2 行']);

    fireEvent.click(screen.getByRole('button', { name: '删除第 4 行' }));
    fireEvent.click(await screen.findByRole('button', { name: /^删\s*除$/ }));
    await waitFor(() => expect(state.work.text.split('\n')).toHaveLength(3));
    expect(await screen.findByText('已保存')).toBeInTheDocument();

    first.unmount();
    render();
    expect(await screen.findByLabelText('第 3 行的台词')).toHaveValue('掌柜，还有上房吗？');
    expect(screen.queryByLabelText('第 4 行的台词')).not.toBeInTheDocument();
  });

  it('does not save a script with an empty line or a bad speaker, says why, and keeps what was typed', async () => {
    const { routes } = animeBackend();
    const server = await backend.start(routes);
    render();
    await screen.findByLabelText('第 3 行的台词');
    fireEvent.change(line(2), { target: { value: '' } });
    expect(await screen.findByText('第 2 行的台词为空，请填写或删除这一行')).toBeInTheDocument();
    fireEvent.change(line(2), { target: { value: '还有房吗？' } });
    fireEvent.change(speaker(2), { target: { value: '林 舟' } });
    expect(await screen.findByText('第 2 行的角色名「林 舟」不能含空格或标点')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '下一步：视频配置' }));
    await settle();
    expect(server.calls('POST', '/api/video/update_text')).toHaveLength(0);
    expect(screen.getByTestId('location').textContent).toBe(ROUTE);
    expect(speaker(2)).toHaveValue('林 舟');
  });

  it('highlights flagged words per line before anything is spent, and replaces them everywhere', async () => {
    const { routes, state } = animeBackend(
      { text: '旁白：这是全网第一的客栈。\n林舟：第一次来。' },
      {
        'GET /api/edit/get_vocabulary': () => ok([{ word: '全网第一', replacement: '很受欢迎' }]),
      },
    );
    await backend.start(routes);
    render();
    expect(await screen.findByLabelText('第 1 行的违禁词')).toHaveTextContent(
      '「全网第一」建议改为「很受欢迎」',
    );
    expect(screen.queryByLabelText('第 2 行的违禁词')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '替换「全网第一」' }));
    await waitFor(() =>
      expect(state.work.text).toBe('旁白：这是很受欢迎的客栈。\n林舟：第一次来。'),
    );
    expect(screen.queryByLabelText('第 1 行的违禁词')).not.toBeInTheDocument();
  });

  it('names a failed save and keeps the edit on the page; 下一步 saves first', async () => {
    const { routes, state } = animeBackend({}, {});
    let failing = true;
    const update = routes['POST /api/video/update_text'];
    await backend.start({
      ...routes,
      'POST /api/video/update_text': (request) =>
        failing || !update ? refuse(500, '服务器开小差了') : update(request),
    });
    render();
    await screen.findByLabelText('第 3 行的台词');
    fireEvent.change(line(3), { target: { value: '只剩一间上房。' } });
    expect(await screen.findByText('剧本保存失败：服务器开小差了')).toBeInTheDocument();
    expect(line(3)).toHaveValue('只剩一间上房。');
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: '下一步：视频配置' }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(
        '/video/animeConfig?videoType=11&workId=31',
      ),
    );
    expect(state.work.text).toContain('掌柜：只剩一间上房。');
  });

  it('asks when the script was changed in another tab since it was read, keeping the page’s lines', async () => {
    const { routes, state } = animeBackend();
    await backend.start(routes);
    render();
    await screen.findByLabelText('第 3 行的台词');
    changeWork(state, () => ({ text: '旁白：另一个页面写的开头。' }));
    fireEvent.change(line(2), { target: { value: '掌柜，还有上房吗？' } });
    expect((await screen.findAllByText('内容已在其他页面修改')).length).toBeGreaterThan(0);
    expect(line(2)).toHaveValue('掌柜，还有上房吗？');
    fireEvent.click(screen.getByText('保留我的修改'));
    await waitFor(() =>
      expect(state.work.text).toBe(
        '旁白：夜里，林舟走进客栈。\n林舟：掌柜，还有上房吗？\n掌柜：只剩一间。',
      ),
    );
  });
});
