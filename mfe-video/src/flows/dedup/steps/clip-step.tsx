import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Flex, Result, Row, Skeleton, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useAtomValue } from 'jotai';
import { Link, useParams } from '@kol/shared-sdk/router';
import {
  canUseProjectType,
  getWorkInfo,
  getWorkResult,
  mediaUrl,
  type DedupPresets,
  type WorkDetail,
  type WorkResult,
  errorMessage,
} from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { PageFrame } from '../../../components/page-frame';
import { useSavedPresets } from '../../../flow-kit/dedup-presets/api/use-saved-presets';
import { DedupPresetsForm } from '../../../flow-kit/dedup-presets/components/dedup-presets-form';
import { GenerateVideoButton } from '../../../flow-kit/generate-video/components/generate-video-button';
import { NoPermission } from '../../../flow-kit/no-permission';
import { saveWorkEdit, savedWorkOf } from '../../../flow-kit/work-edits';
import { usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { useDedupPreview } from '../api/use-dedup-preview';
import { DedupPreviewFrames } from '../components/dedup-preview-frames';
import { CONVERT_TYPE, forgetDedupClip, readDedupClip, writeDedupClip } from '../dedup-flow';

interface Loaded {
  work: WorkDetail;
  result: WorkResult;
}

/** The query key of the work a de-duplication page shows, with its last render. */
const dedupClipKey = (workId: number) => ['dedup-clip', workId] as const;

function DedupClip({ workId, outside }: { workId: number; outside: boolean }) {
  const { message } = App.useApp();
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const { saved } = useSavedPresets();
  const revisionedSave = useRevisionedSave();
  const client = useQueryClient();
  const key = dedupClipKey(workId);
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }): Promise<Loaded> => {
      const [work, result] = await Promise.all([
        getWorkInfo({ workId }, { signal }),
        getWorkResult({ workId }, { signal }),
      ]);
      return { work, result };
    },
    // The work (the base of the presets' save) and its last render as they are on arrival:
    // never refreshed behind the page, dropped when it goes, so each visit reads them anew.
    gcTime: 0,
  });
  const loaded = query.data ?? null;
  const error = query.error ? `作品加载失败：${errorMessage(query.error)}` : null;
  const setLoaded = (next: Loaded) => client.setQueryData(key, next);
  /** Reads the work afresh, as on opening (nothing of the old copy shown meanwhile). */
  const readAgain = () => void client.resetQueries({ queryKey: key });
  // Presets tried before a reload come back; the work's own are shown otherwise.
  const [tried, setTried] = useState<DedupPresets | null>(() => readDedupClip(workId));
  const presets = tried ?? (loaded ? (loaded.work.settings.dedup ?? {}) : null);
  const setPresets = (next: DedupPresets) => {
    writeDedupClip(workId, next);
    setTried(next);
  };

  const settings = loaded?.work.settings;
  const aspect = settings?.aspect ?? '9:16';
  const clipUrl = settings?.sourceVideoUrl?.trim() || null;
  const preview = useDedupPreview(clipUrl, presets ?? {}, aspect);

  const frame = (body: React.ReactNode, actions?: React.ReactNode) => (
    <PageFrame title="视频去重" outside={outside} actions={actions}>
      {body}
    </PageFrame>
  );
  if (error) {
    return frame(
      <Alert
        type="error"
        showIcon
        title={error}
        action={
          <Button size="small" onClick={readAgain}>
            重新加载
          </Button>
        }
      />,
    );
  }
  if (!loaded || !presets) return frame(<Skeleton active />);
  const { work, result } = loaded;
  if (work.type !== CONVERT_TYPE || !clipUrl) {
    return frame(
      <Result
        status="warning"
        title="这个作品不能去重"
        subTitle={
          work.type !== CONVERT_TYPE
            ? `「${work.title}」不是反推视频：去重只用于反推视频的原视频画面`
            : `「${work.title}」还没有上传原视频，请先在反推视频中上传`
        }
        extra={
          <Link to="/convertConfig">
            <Button type="primary">去制作反推视频</Button>
          </Link>
        }
      />,
    );
  }

  // The presets go onto the work just before the render, so the render applies what is shown;
  // based on the work as the page read it, a change made since elsewhere is merged in.
  const prepare = async () => {
    try {
      const now = await saveWorkEdit(revisionedSave, savedWorkOf(work), {
        settings: { aspect: work.settings.aspect, dedup: presets },
      });
      if (!now) {
        // The person chose the work's presets as saved elsewhere over the ones tried here.
        forgetDedupClip(workId);
        setTried(null);
        readAgain();
        return false;
      }
      setLoaded({
        work: { ...work, settings: { ...work.settings, ...now.settings }, revision: now.revision },
        result,
      });
      return true;
    } catch (reason) {
      void message.error(`保存去重设置失败：${errorMessage(reason)}`);
      return false;
    }
  };

  const made = result.state === 'succeeded' && result.videoUrl;
  const running = result.state === 'queued' || result.state === 'running';
  return frame(
    <>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        「{work.title}」：调整去重设置，对比去重前后的画面，然后重新生成这条视频并下载。
      </Typography.Paragraph>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={phone ? 24 : 12}>
          <Card
            size="small"
            title="去重设置"
            extra={
              <Button size="small" disabled={!saved} onClick={() => saved && setPresets(saved)}>
                使用我的去重设置
              </Button>
            }
          >
            <DedupPresetsForm value={presets} onChange={setPresets} />
          </Card>
        </Col>
        <Col xs={24} lg={phone ? 24 : 12}>
          <Flex vertical gap={16}>
            <Card size="small" title="预览">
              <DedupPreviewFrames {...preview} aspect={aspect} />
            </Card>
            <Card size="small" title="生成结果">
              {made ? (
                <Flex vertical gap={8}>
                  <video
                    src={mediaUrl(result.videoUrl)}
                    aria-label="去重后的视频"
                    controls
                    preload="metadata"
                    style={{ maxWidth: '100%', maxHeight: 360, background: '#000' }}
                  />
                  <Button
                    icon={<DownloadOutlined aria-hidden />}
                    href={mediaUrl(result.videoUrl)}
                    download={`${work.title}.mp4`}
                    style={{ alignSelf: 'flex-start' }}
                  >
                    下载 MP4
                  </Button>
                </Flex>
              ) : running ? (
                <Typography.Text>
                  正在生成（{Math.round(result.progress)}%）：
                  <Link to={`/video/production?workId=${workId}`}>查看进度</Link>
                </Typography.Text>
              ) : (
                <Typography.Text type="secondary">
                  {result.state === 'failed' ? `上次生成失败：${result.error ?? ''}` : '还没有生成'}
                </Typography.Text>
              )}
            </Card>
          </Flex>
        </Col>
      </Row>
    </>,
    <GenerateVideoButton
      workId={workId}
      type={CONVERT_TYPE}
      prepare={prepare}
      onStarted={() => {
        // The work holds the presets now: the next visit reads them from it.
        forgetDedupClip(workId);
        navigate(`/video/production?workId=${workId}`);
      }}
    />,
  );
}

/**
 * `/video/cutDuplicates/:id` and `/video/duplicatesEdit/:id` (outside the layout) 视频去重:
 * `:id` is a reverse video's work; its presets, a before / after frame of its source clip,
 * the render with them (one count, asked first) and the result to download.
 */
export function DedupClipStep({ outside = false }: { outside?: boolean }) {
  const user = useAtomValue(currentUserAtom);
  const { id } = useParams();
  const workId = Number(id);
  if (!canUseProjectType(user, CONVERT_TYPE)) return <NoPermission type={CONVERT_TYPE} />;
  if (!Number.isInteger(workId) || workId <= 0) {
    return (
      <PageFrame title="视频去重" outside={outside}>
        <Alert type="error" showIcon title={`作品编号「${id ?? ''}」不正确`} />
      </PageFrame>
    );
  }
  return <DedupClip key={workId} workId={workId} outside={outside} />;
}
