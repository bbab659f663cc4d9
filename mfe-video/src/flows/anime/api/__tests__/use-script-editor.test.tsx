import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeBackendPerTest, renderWithHost } from '@kol/shared-sdk/testing';
import { animeBackend, animeUser } from '../../../../testing/anime';
import { useScriptEditor } from '../use-script-editor';

const backend = fakeBackendPerTest();

/** The editor's lines as text boxes named by their speaker. */
function Lines() {
  const editor = useScriptEditor(31);
  return (
    <>
      {editor.lines?.map((line) => (
        <input
          key={line.key}
          aria-label={line.speaker}
          value={line.text}
          onChange={(event) => editor.edit(line.key, { text: event.target.value })}
        />
      ))}
    </>
  );
}

describe('useScriptEditor', () => {
  it('keeps what is typed when another page reads the work (the cache key is shared), and saves it', async () => {
    const { state, routes } = animeBackend();
    const server = await backend.start(routes);
    const { queryClient } = renderWithHost(<Lines />, { user: animeUser() });
    const line = await screen.findByLabelText('掌柜');
    fireEvent.change(line, { target: { value: '只剩一间上房。' } });

    // Another page showing the work reads it again before the edit is saved.
    await act(() => queryClient.invalidateQueries({ queryKey: ['work', 31] }));
    expect(server.calls('GET', '/api/video/work_info')).toHaveLength(2);
    expect(screen.getByLabelText('掌柜')).toHaveValue('只剩一间上房。');

    await waitFor(() => expect(state.work.text).toContain('掌柜：只剩一间上房。'));
    expect(screen.getByLabelText('掌柜')).toHaveValue('只剩一间上房。');
  });
});
