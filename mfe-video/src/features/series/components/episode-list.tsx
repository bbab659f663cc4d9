import { App, Button, Card, Col, Flex, Image, Progress, Row, Tag, Typography } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import {
  mediaUrl,
  retrySeriesEpisode,
  stageFailureText,
  stageName,
  type SeriesDetail,
  type SeriesEpisode,
  errorMessage,
} from '@kol/shared-sdk';
import { ExportProject } from '@kol/shared-sdk/ui';
import { ConfirmButton } from '../../../components/confirm-button';
import { formatEta } from '../../../lib/stages';
import { EPISODE_STATE } from './series-state';

interface EpisodeListProps {
  series: SeriesDetail;
  onChange: (series: SeriesDetail) => void;
}

/**
 * Every episode: its state, stage, percent and estimate while it is made; the failure named in
 * Chinese with 重新生成; the cover, 播放, 下载 and its export as an editor's project once it is done.
 */
export function EpisodeList({ series, onChange }: EpisodeListProps) {
  return (
    <Row gutter={[12, 12]}>
      {series.episodes.map((episode) => (
        <Col key={episode.index} xs={24} sm={12} lg={8} xl={6}>
          <EpisodeCard seriesId={series.seriesId} episode={episode} onChange={onChange} />
        </Col>
      ))}
    </Row>
  );
}

function EpisodeCard({
  seriesId,
  episode,
  onChange,
}: {
  seriesId: number;
  episode: SeriesEpisode;
  onChange: (series: SeriesDetail) => void;
}) {
  const { message } = App.useApp();
  const state = EPISODE_STATE[episode.state];
  const live = episode.state === 'running' || episode.state === 'queued';
  const name = `第${episode.index}集 ${episode.title}`;
  const retry = async () => {
    try {
      onChange(await retrySeriesEpisode({ seriesId, index: episode.index }));
      void message.success(`${name}已重新开始生成`);
    } catch (error) {
      void message.error(errorMessage(error));
      throw error;
    }
  };
  return (
    <Card
      size="small"
      role="group"
      aria-label={name}
      cover={
        episode.state === 'succeeded' && episode.coverUrl ? (
          <Image src={mediaUrl(episode.coverUrl)} alt={`${name} 封面`} preview={false} />
        ) : undefined
      }
    >
      <Flex vertical gap={6}>
        <Flex justify="space-between" align="center" gap={8}>
          <Typography.Text strong ellipsis>
            {name}
          </Typography.Text>
          <Tag color={state.color}>{state.label}</Tag>
        </Flex>
        <Typography.Text type="secondary" ellipsis>
          {episode.sourceTitle}
        </Typography.Text>
        {live && (
          <>
            <Typography.Text>
              {episode.state === 'queued' ? '排队中' : `正在${stageName(episode.stage)}`}
              {episode.etaSeconds ? ` · 预计还需 ${formatEta(episode.etaSeconds)}` : ''}
            </Typography.Text>
            <Progress
              aria-label={`${name} 进度`}
              percent={Math.round(episode.progress)}
              size="small"
            />
          </>
        )}
        {episode.state === 'failed' && (
          <>
            <Typography.Text type="danger">{stageFailureText(null, episode.error)}</Typography.Text>
            <ConfirmButton
              size="small"
              confirmTitle={`重新生成${name}？`}
              confirmContent="将使用 1 次生成次数（失败的那一次如因服务故障已退回）。"
              okText="重新生成"
              onConfirm={retry}
            >
              重新生成
            </ConfirmButton>
          </>
        )}
        {episode.state === 'succeeded' && episode.taskId && (
          <Flex gap={8}>
            <Link to={`/video/short/${episode.taskId}`} aria-label={`播放 ${name}`}>
              <Button size="small" type="primary" autoInsertSpace={false}>
                播放
              </Button>
            </Link>
            {episode.videoUrl && (
              <Button
                size="small"
                autoInsertSpace={false}
                href={mediaUrl(episode.videoUrl)}
                download
                aria-label={`下载 ${name}`}
              >
                下载
              </Button>
            )}
          </Flex>
        )}
        {episode.state === 'succeeded' && episode.taskId && (
          <ExportProject
            workId={episode.workId}
            taskId={episode.taskId}
            exportRefusal={episode.exportRefusal ?? null}
            name={name}
            size="small"
          />
        )}
      </Flex>
    </Card>
  );
}
