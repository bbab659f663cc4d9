import { useState } from 'react';
import { Alert, App, Button, Card, Flex, InputNumber, Skeleton, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@kol/shared-sdk/router';
import {
  cancelSeries,
  pauseSeries,
  resumeSeries,
  seriesDownloadUrl,
  startSeries,
  videoTypeLabel,
  type SeriesDetail,
  errorMessage,
} from '@kol/shared-sdk';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import { ConfirmButton } from '../../components/confirm-button';
import { PageFrame } from '../../components/page-frame';
import { formatEta } from '../../lib/stages';
import { SERIES_LIST_KEY, seriesKey, useSeries } from './api/use-series';
import { CastReview } from './components/cast-review';
import { EpisodeList } from './components/episode-list';
import { SERIES_STATE } from './components/series-state';

/** The works list of the series' type, filtered to its episodes (the works remote's page). */
const WORKS_PAGE: Record<number, string> = {
  0: '/work/comics',
  5: '/work/comics',
  1: '/work/decompression',
  2: '/work/scroll',
};

/**
 * `/video/series/:id` 系列: a draft's cast to review and its start; then every episode live
 * (stage, percent, estimate), pause, resume, cancel the rest (their counts given back), a failed
 * episode retried; when done, the covers, each episode played, and the season as one ZIP.
 */
export function SeriesScreen({ seriesId }: { seriesId: number }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const { series, loading, error } = useSeries(seriesId);
  const [limit, setLimit] = useState<number | null>(null);
  const [startError, setStartError] = useState<string | null>(null);

  const take = (next: SeriesDetail) => {
    client.setQueryData(seriesKey(seriesId), next);
    void client.invalidateQueries({ queryKey: SERIES_LIST_KEY });
  };
  const act = (call: () => Promise<SeriesDetail>, done: string) => async () => {
    try {
      take(await call());
      void message.success(done);
    } catch (failure) {
      void message.error(errorMessage(failure));
      throw failure;
    }
  };
  const pause = useSingleFlight(
    act(() => pauseSeries({ seriesId }), '已暂停：正在生成的一集完成后不再开始新的分集'),
  );
  const resume = useSingleFlight(act(() => resumeSeries({ seriesId }), '已继续生成'));

  if (loading || (!series && !error)) {
    return (
      <PageFrame title="系列">
        <Skeleton active />
      </PageFrame>
    );
  }
  if (!series) {
    return (
      <PageFrame title="系列">
        <Alert type="error" showIcon title={`系列加载失败：${error ?? '未知原因'}`} />
      </PageFrame>
    );
  }

  const state = SERIES_STATE[series.state];
  const count = series.episodes.length;
  const chosen = limit ?? count;
  const start = async () => {
    setStartError(null);
    try {
      take(await startSeries({ seriesId, ...(chosen < count ? { episodes: chosen } : {}) }));
      void message.success('已开始生成，每集完成后自动开始下一集');
    } catch (failure) {
      setStartError(errorMessage(failure));
      throw failure;
    }
  };
  const cancel = act(() => cancelSeries({ seriesId }), '已取消：未开始的分集次数已退回');
  const waiting = series.episodes.filter((e) => e.state === 'pending').length;
  const worksPage = WORKS_PAGE[series.type];

  return (
    <PageFrame
      title={`系列 · ${series.title}`}
      extra={
        <Flex gap={8} wrap align="center">
          <Tag color={state.color}>{state.label}</Tag>
          <Typography.Text type="secondary">
            {videoTypeLabel(series.type)} · {series.succeeded}/{count} 集完成
            {series.failed ? ` · ${series.failed} 集失败` : ''}
            {series.etaSeconds ? ` · 预计还需 ${formatEta(series.etaSeconds)}` : ''}
          </Typography.Text>
        </Flex>
      }
    >
      {error && <Alert type="warning" showIcon title={`进度暂时获取不到（${error}），正在重试…`} />}
      {series.state === 'draft' ? (
        <>
          <Card title="确认角色" size="small">
            <CastReview castTaskId={series.castTaskId} castEngine={series.castEngine} />
          </Card>
          <Card title="开始生成" size="small">
            <Flex vertical gap={8}>
              <Typography.Text>
                共 {count} 集。开始时为每集预留 1
                次生成次数；暂停后正在生成的一集会完成；取消时未开始的分集退回次数。
              </Typography.Text>
              <Flex gap={8} align="center" wrap>
                <Typography.Text>生成集数</Typography.Text>
                <InputNumber
                  aria-label="生成集数"
                  min={1}
                  max={count}
                  value={chosen}
                  onChange={(value) => setLimit(value ?? count)}
                />
                <Typography.Text type="secondary">
                  {chosen < count
                    ? `只生成前 ${chosen} 集，其余 ${count - chosen} 集取消`
                    : '全部生成'}
                </Typography.Text>
              </Flex>
              {startError && <Alert type="error" showIcon title={startError} />}
              <Flex justify="end">
                <ConfirmButton
                  type="primary"
                  confirmTitle={`开始生成 ${chosen} 集？`}
                  confirmContent={`将预留 ${chosen} 次生成次数，按集顺序逐集生成。`}
                  okText="开始生成"
                  onConfirm={start}
                >
                  开始生成
                </ConfirmButton>
              </Flex>
            </Flex>
          </Card>
        </>
      ) : (
        <>
          <Flex gap={8} wrap>
            {series.state === 'running' && (
              <Button loading={pause.busy} onClick={() => void pause.run()}>
                暂停
              </Button>
            )}
            {series.state === 'paused' && (
              <Button type="primary" loading={resume.busy} onClick={() => void resume.run()}>
                继续生成
              </Button>
            )}
            {(series.state === 'running' || series.state === 'paused') && waiting > 0 && (
              <ConfirmButton
                danger
                confirmTitle="取消剩余的分集？"
                confirmContent={`未开始的 ${waiting} 集将取消，预留的 ${series.reservedCounts} 次生成次数退回；正在生成的一集会完成。`}
                okText="取消剩余分集"
                okDanger
                onConfirm={cancel}
              >
                取消剩余分集
              </ConfirmButton>
            )}
            <Button
              href={series.succeeded > 0 ? seriesDownloadUrl(seriesId) : undefined}
              disabled={series.succeeded === 0}
              download
            >
              下载全部（ZIP）
            </Button>
            {worksPage && (
              <Link to={`${worksPage}?seriesId=${seriesId}`}>
                <Button>在我的作品中查看</Button>
              </Link>
            )}
          </Flex>
          <EpisodeList series={series} onChange={take} />
        </>
      )}
    </PageFrame>
  );
}
