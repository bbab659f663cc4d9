import { describe, expect, it } from '@jest/globals';
import { useState } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeBackendPerTest, ok, refuse, renderWithHost, settle } from '@kol/shared-sdk/testing';
import { VOICES } from '../../testing/fixtures';
import { useVoices } from '../use-voices';

const { start } = fakeBackendPerTest();

/** One consumer of the voices, as a picker shows them: loading, the failure, or the names. */
function Voices({ label }: { label: string }) {
  const { voices, loading, error, reload } = useVoices('zh');
  return (
    <section aria-label={label}>
      {loading && <span>加载中</span>}
      {error && (
        <button type="button" onClick={reload}>
          {`失败：${error}`}
        </button>
      )}
      {voices.map((voice) => (
        <span key={voice.voiceId}>{voice.name}</span>
      ))}
    </section>
  );
}

/** A page with its own consumer, and a second one (a character's picker) shown on request. */
function Page() {
  const [second, setSecond] = useState(false);
  return (
    <>
      <Voices label="页面" />
      <button type="button" onClick={() => setSecond(true)}>
        显示第二个
      </button>
      {second && <Voices label="角色" />}
    </>
  );
}

const inside = (label: string) => screen.getByRole('region', { name: label });

describe('useVoices', () => {
  it('loads the voices once for two consumers, the second shown after the first answered', async () => {
    const server = await start({ 'GET /api/edit/tts_list': () => ok(VOICES) });
    renderWithHost(<Page />);
    expect(inside('页面')).toHaveTextContent('加载中');
    await waitFor(() => expect(inside('页面')).toHaveTextContent('普通话女声普通话男声'));
    fireEvent.click(screen.getByText('显示第二个'));
    // At once, from what the first consumer loaded: no second request, no loading state.
    expect(inside('角色')).toHaveTextContent('普通话女声普通话男声');
    expect(inside('角色')).not.toHaveTextContent('加载中');
    await settle();
    expect(server.calls('GET', '/api/edit/tts_list').map((call) => call.query)).toEqual([
      { language: 'zh' },
    ]);
  });

  it('after a failure, keeps it shown while a new consumer asks again, and shows the answer', async () => {
    let failing = true;
    const server = await start({
      'GET /api/edit/tts_list': () => (failing ? refuse(500, '语音服务不可用') : ok(VOICES, 50)),
    });
    renderWithHost(<Page />);
    await waitFor(() => expect(inside('页面')).toHaveTextContent('失败：语音服务不可用'));
    failing = false;
    fireEvent.click(screen.getByText('显示第二个'));
    // The new consumer asks again; the page keeps its failure meanwhile and does not go back to
    // loading (a page that shows its pickers once the list answered would take them away).
    await waitFor(() => expect(server.calls('GET', '/api/edit/tts_list')).toHaveLength(2));
    expect(inside('页面')).toHaveTextContent('失败：语音服务不可用');
    expect(inside('页面')).not.toHaveTextContent('加载中');
    await waitFor(() => expect(inside('页面')).toHaveTextContent('普通话女声普通话男声'));
    expect(inside('页面')).not.toHaveTextContent('失败');
    expect(inside('角色')).toHaveTextContent('普通话女声普通话男声');
  });

  it('asks again on 重新加载 after a failure', async () => {
    let failing = true;
    const server = await start({
      'GET /api/edit/tts_list': () => (failing ? refuse(500, '语音服务不可用') : ok(VOICES)),
    });
    renderWithHost(<Voices label="页面" />);
    const failure = await screen.findByText('失败：语音服务不可用');
    failing = false;
    fireEvent.click(failure);
    await waitFor(() => expect(inside('页面')).toHaveTextContent('普通话女声普通话男声'));
    expect(server.calls('GET', '/api/edit/tts_list')).toHaveLength(2);
  });
});
