import { Alert, Button, Card, Flex, Result, Spin, Typography } from 'antd';
import { Link, useNavigate } from '@kol/shared-sdk/router';
import { ProjectType } from '@kol/shared-sdk';
import { useCutData } from '../api/use-cut-data';
import { useVideoProgress } from '../api/use-video-progress';
import type { CutEditorTiming } from '../constants';
import type { WorkDetail, WorkResult } from '@kol/shared-sdk';
import { CutEditor } from './cut-editor';
import { VideoSection } from './video-section';

/** The work not found (or not the user's): back to the works. */
export function WorkNotFound({ message }: { message?: string }) {
  const navigate = useNavigate();
  return (
    <Result
      // antd's 403 and 404 pictures are drawn in its default blue, off the theme's palette.
      status="warning"
      title="作品不存在"
      subTitle={message && message !== '作品不存在' ? message : '这个作品不存在，或不属于你。'}
      extra={
        <Button type="primary" onClick={() => navigate('/work')}>
          返回作品列表
        </Button>
      }
    />
  );
}

interface NoCutProps {
  work: WorkDetail;
  result: WorkResult | null;
  resultError: string | null;
  reason: string;
  progressPollMs: number;
}

/** A work without cut data (scroll: spec, no merge): its video and why it cannot be edited. */
function NoCut({ work, result, resultError, reason, progressPollMs }: NoCutProps) {
  const progress = useVideoProgress({ workId: work.workId, initial: result, progressPollMs });
  const scroll = work.type === ProjectType.scroll;
  return (
    <Flex vertical gap={16} style={{ maxWidth: 1200, width: '100%' }}>
      <Typography.Title level={1} style={{ margin: 0, fontSize: 24 }}>
        视频编辑 · {work.title}
      </Typography.Title>
      <Alert
        type="info"
        showIcon
        title={
          scroll
            ? '滚屏视频没有剪辑与合成（按规格），可在作品列表中重新生成'
            : `这个作品不能剪辑：${reason}`
        }
        action={
          scroll ? (
            <Link to="/work/scroll">前往滚屏视频作品</Link>
          ) : (
            <Link to="/work">返回作品列表</Link>
          )
        }
      />
      <Card size="small" title="当前视频" style={{ maxWidth: 480 }}>
        <VideoSection
          result={progress.result}
          resultError={resultError}
          video={progress.video}
          running={progress.running}
          polling={progress.polling}
          madeHere={false}
        />
      </Card>
    </Flex>
  );
}

interface CutEditorScreenProps {
  workId: number;
  timing: CutEditorTiming;
  /** A merge was started: the page leads on (see `CutEditor`); else the editor follows it. */
  onMergeStarted?: (taskId: string) => void;
}

/**
 * `/work/cut/:id` and `/video/cut?workId=`: loads the work and its cut data, then the editor (or
 * why there is none).
 */
export function CutEditorScreen({ workId, timing, onMergeStarted }: CutEditorScreenProps) {
  const { data, reload } = useCutData(workId);

  if (data.status === 'loading') return <Spin description="加载中" />;
  if (data.status === 'not-found') return <WorkNotFound message={data.message} />;
  if (data.status === 'error')
    return (
      <Alert
        type="error"
        showIcon
        title={`剪辑数据加载失败：${data.message}`}
        action={
          <Button size="small" onClick={reload}>
            重试
          </Button>
        }
        style={{ maxWidth: 800, width: '100%' }}
      />
    );
  if (!data.cut)
    return (
      <NoCut
        work={data.work}
        result={data.result}
        resultError={data.resultError}
        reason={data.noCut ?? ''}
        progressPollMs={timing.progressPollMs}
      />
    );
  return (
    <CutEditor
      work={data.work}
      cut={data.cut}
      result={data.result}
      resultError={data.resultError}
      timing={timing}
      onReload={reload}
      onMergeStarted={onMergeStarted}
    />
  );
}
