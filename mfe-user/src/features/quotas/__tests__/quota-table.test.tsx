import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QUOTA_TYPE_LABELS } from '@kol/shared-sdk';
import { usageLimitsAtom } from '@kol/shared-sdk/state';
import { demoLimits } from '../../../testing/fixtures';
import { fakeBackendPerTest, ok, refuse, renderWithHost } from '@kol/shared-sdk/testing';
import { QuotaTable } from '../components/quota-table';

const backend = fakeBackendPerTest();

/** The cells of the row whose first cell is `label`. */
function rowCells(label: string): string[] {
  const row = screen.getByText(label).closest('tr');
  if (!row) throw new Error(`no row ${label}`);
  return within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent ?? '');
}

describe('quota table', () => {
  it('fetches get_user_limit_info and shows every spent type with remaining, reward and merge', async () => {
    const server = await backend.start({
      'GET /api/user/get_user_limit_info': () => ok(demoLimits()),
    });
    const { store } = renderWithHost(<QuotaTable />);

    for (const header of ['类型', '剩余次数', '奖励次数', '合成次数']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    expect(await screen.findByText('漫剪视频')).toBeInTheDocument();
    expect(server.calls('GET', '/api/user/get_user_limit_info')).toHaveLength(1);
    expect(store.get(usageLimitsAtom)).toEqual(demoLimits());

    // eight video quota kinds and the header; 搜索视频 is spent by no page, so it has no row
    expect(screen.getAllByRole('row')).toHaveLength(8 + 1);
    expect(rowCells(QUOTA_TYPE_LABELS.comics)).toEqual(['漫剪视频', '11', '12', '13']);
    expect(rowCells(QUOTA_TYPE_LABELS.comicsOverseas)).toEqual(['海外漫剪视频', '21', '22', '23']);
    expect(rowCells(QUOTA_TYPE_LABELS.decompression)).toEqual(['解压视频', '31', '32', '33']);
    expect(rowCells(QUOTA_TYPE_LABELS.decompressionOverseas)).toEqual([
      '海外解压视频',
      '41',
      '42',
      '43',
    ]);
    expect(rowCells(QUOTA_TYPE_LABELS.scroll)).toEqual(['滚屏视频', '51', '52', '—']);
    expect(rowCells(QUOTA_TYPE_LABELS.convert)).toEqual(['反推视频', '61', '62', '63']);
    expect(rowCells(QUOTA_TYPE_LABELS.market)).toEqual(['营销视频', '71', '72', '73']);
    expect(rowCells(QUOTA_TYPE_LABELS.realOpera)).toEqual(['真人短剧', '91', '92', '93']);
    expect(screen.queryByText(QUOTA_TYPE_LABELS.searchVideo)).not.toBeInTheDocument();
  });

  it('shows zero as zero, not as missing', async () => {
    await backend.start({
      'GET /api/user/get_user_limit_info': () =>
        ok({ ...demoLimits(), remainGenCount: 0, remainRewardsGenerateCount: 0 }),
    });
    renderWithHost(<QuotaTable />);
    expect(await screen.findByText('漫剪视频')).toBeInTheDocument();
    expect(rowCells('漫剪视频')).toEqual(['漫剪视频', '0', '0', '13']);
  });

  it('shows the server message on failure and loads again on request', async () => {
    let fail = true;
    await backend.start({
      'GET /api/user/get_user_limit_info': () =>
        fail ? refuse(500, '服务繁忙，请稍后再试') : ok(demoLimits()),
    });
    renderWithHost(<QuotaTable />);
    expect(await screen.findByText('服务繁忙，请稍后再试')).toBeInTheDocument();
    expect(screen.getByText('次数加载失败')).toBeInTheDocument();

    fail = false;
    fireEvent.click(screen.getByRole('button', { name: '重新加载' }));
    expect(await screen.findByText('漫剪视频')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: '重新加载' })).not.toBeInTheDocument(),
    );
  });
});
