import { useState } from 'react';
import { Alert, Button, Card, Col, Flex, Result, Row, Skeleton } from 'antd';
import { Link, useParams } from '@kol/shared-sdk/router';
import { ExportProject } from '@kol/shared-sdk/ui';
import { PageFrame } from '../../components/page-frame';
import { usePageNavigate } from '../../lib/phone';
import { useVideoResult } from './api/use-video-result';
import { QualityReportCard } from './components/quality-report-card';
import { ShotMarkers } from './components/shot-markers';
import { VideoDetails } from './components/video-details';
import { VideoPlayer } from './components/video-player';

function ShortVideo({ taskId }: { taskId: string }) {
  const navigate = usePageNavigate();
  const { result, work, setWork, error, reload } = useVideoResult(taskId);
  const [durationMs, setDurationMs] = useState<number | null>(null);
  const progress = `/video/production?workId=${result?.workId ?? ''}`;

  if (error) {
    return (
      <Alert
        type="error"
        showIcon
        title={`视频加载失败：${error}`}
        action={
          <Button size="small" onClick={reload}>
            重新加载
          </Button>
        }
      />
    );
  }
  if (!result || !work) return <Skeleton active />;
  if (result.state !== 'succeeded' || !result.videoUrl) {
    return (
      <Result
        status={result.state === 'failed' ? 'error' : 'info'}
        title={
          result.state === 'failed'
            ? '这个视频生成失败了'
            : result.state === 'cancelled'
              ? '这个视频的生成已取消'
              : '视频还在生成中'
        }
        subTitle={result.error ?? undefined}
        extra={
          <Link to={progress}>
            <Button type="primary">查看生成进度</Button>
          </Link>
        }
      />
    );
  }
  const shotMs = work.shots.reduce((sum, shot) => sum + shot.durationMs, 0);
  // The player's column is as wide as its video needs (a portrait video is narrow and tall), and
  // the details, actions and quality report fill the rest beside it; a phone stacks them.
  const portrait = work.settings.aspect !== '16:9';
  return (
    <Row gutter={[16, 16]} align="top">
      <Col xs={24} md={portrait ? 10 : 24} lg={portrait ? 8 : 14} data-testid="player-column">
        <VideoPlayer
          videoUrl={result.videoUrl}
          coverUrl={result.coverUrl}
          aspect={work.settings.aspect}
          onDuration={setDurationMs}
        />
      </Col>
      <Col xs={24} md={portrait ? 14 : 24} lg={portrait ? 16 : 10} data-testid="details-column">
        <Flex vertical gap={16}>
          <Card size="small" title="视频信息">
            <Flex vertical gap={12}>
              <VideoDetails
                work={work}
                videoUrl={result.videoUrl}
                srtUrl={result.srtUrl}
                durationMs={durationMs ?? (shotMs > 0 ? shotMs : null)}
                onChanged={setWork}
                onRegenerated={() => navigate(progress)}
              />
              {/* This render, as an editor's project; or why it cannot be one (a scroll video,
                  a video made before exports). */}
              <ExportProject
                workId={result.workId}
                taskId={taskId}
                exportRefusal={result.exportRefusal}
              />
            </Flex>
          </Card>
          {/* A video made before quality reports existed has none (null). */}
          {result.report && (
            <Card size="small" title="质量报告">
              <QualityReportCard report={result.report} work={work} onWorkChanged={setWork} />
            </Card>
          )}
        </Flex>
      </Col>
      {/* A drama of uploaded scenes has no drawn shots to show. */}
      {work.shots.length > 0 && (
        <Col xs={24}>
          <Card size="small" title="分镜画面">
            <ShotMarkers work={work} report={result.report ?? null} />
          </Card>
        </Col>
      )}
    </Row>
  );
}

/** `/video/short/:taskId` 视频详情: the finished video of a task, found by its id alone. */
export function ShortScreen() {
  const { taskId = '' } = useParams();
  return (
    <PageFrame title="视频详情" outside>
      <ShortVideo taskId={taskId} />
    </PageFrame>
  );
}
