import { Alert, Card, Col, Flex, Radio, Result, Row, Slider, Spin, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useSearchParams } from '@kol/shared-sdk/router';
import {
  canUseProjectType,
  estimateNarrationMs,
  mediaUrl,
  narrationVoiceOf,
  remainingGenerations,
} from '@kol/shared-sdk';
import { currentUserAtom, useUsageLimits } from '@kol/shared-sdk/state';
import { PageFrame } from '../../../components/page-frame';
import { VideoEstimate } from '../../../components/video-estimate';
import { GenerateVideoButton } from '../../../flow-kit/generate-video/components/generate-video-button';
import { NoPermission } from '../../../flow-kit/no-permission';
import { QuotaUsedUp } from '../../../flow-kit/quota-used-up';
import { TextSourceCard } from '../../../flow-kit/text-source/components/text-source-card';
import { MusicPicker } from '../../../flow-kit/video-settings/components/music-picker';
import { VoicePicker } from '../../../flow-kit/voices/components/voice-picker';
import { usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { useBackgrounds } from '../api/use-backgrounds';
import { useScrollVideo } from '../api/use-scroll-video';
import { BackgroundPicker } from '../components/background-picker';
import { ScrollPreview } from '../components/scroll-preview';
import { MAX_SCROLL_TEXT_CHARS, SCROLL_TYPE } from '../scroll-flow';

function ScrollForm({ workId }: { workId: number | null }) {
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const [params, setParams] = useSearchParams();
  const backgrounds = useBackgrounds();
  const scroll = useScrollVideo(workId, (id) => {
    const next = new URLSearchParams(params);
    next.set('workId', String(id));
    setParams(next, { replace: true });
  });
  const { draft } = scroll;

  if (!draft) {
    return scroll.loadError ? (
      <Result status="error" title="作品读取失败" subTitle={scroll.loadError} />
    ) : (
      <Spin aria-label="正在读取作品" />
    );
  }
  const speed = draft.settings.speed ?? 1;
  // The scroll lasts exactly as long as its narration (the first line at the reading band when
  // the voice starts, the last when it ends), spoken with the voice the server will use.
  const estimatedMs = estimateNarrationMs(draft.text, {
    voiceId: narrationVoiceOf(SCROLL_TYPE, draft.settings.voiceId),
    speed,
  });
  const background =
    backgrounds.materials.find((m) => m.materialId === draft.settings.backgroundMaterialId) ??
    backgrounds.materials[0];

  return (
    <PageFrame
      title="滚屏视频"
      actions={
        <GenerateVideoButton
          workId={scroll.save}
          type={SCROLL_TYPE}
          prepare={scroll.check}
          onStarted={(_taskId, id) => navigate(`/video/production?workId=${id}`)}
        />
      }
    >
      <Alert
        type="info"
        showIcon
        title="滚屏视频没有合成步骤：整段文案随配音从下往上滚动，生成即是成片，不能再进入编辑器修改或合成。"
      />
      <VideoEstimate ms={estimatedMs} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={phone ? 24 : 14}>
          <TextSourceCard
            text={draft.text}
            onTextChange={scroll.changeText}
            title={draft.title}
            onTitleChange={(title) => scroll.update({ title })}
            onChapterPicked={() => undefined}
            problem={scroll.problem}
            maxChars={MAX_SCROLL_TEXT_CHARS}
            handedOver={scroll.handedOver}
            overseas={false}
            textLabel="滚屏文案"
            placeholder="粘贴或输入要滚动播放的长文案，分段会在画面中空一行"
          />
        </Col>
        <Col xs={24} lg={phone ? 24 : 10}>
          <Flex vertical gap={16}>
            <Card title="滚动预览" size="small">
              <ScrollPreview
                text={draft.text}
                speed={speed}
                voiceId={draft.settings.voiceId ?? null}
                aspect={draft.settings.aspect}
                coverUrl={background?.coverUrl ? mediaUrl(background.coverUrl) : undefined}
              />
            </Card>
            <Card title="画面" size="small">
              <Flex vertical gap={12}>
                <Radio.Group
                  aria-label="画面比例"
                  optionType="button"
                  value={draft.settings.aspect}
                  onChange={(event) => scroll.changeSettings({ aspect: event.target.value })}
                  options={[
                    { value: '9:16', label: '竖屏 9:16' },
                    { value: '16:9', label: '横屏 16:9' },
                  ]}
                />
                <Typography.Text strong>背景</Typography.Text>
                <BackgroundPicker
                  materials={backgrounds.materials}
                  loading={backgrounds.loading}
                  error={backgrounds.error}
                  onRetry={backgrounds.reload}
                  value={draft.settings.backgroundMaterialId}
                  onChange={(backgroundMaterialId) =>
                    scroll.changeSettings({ backgroundMaterialId })
                  }
                />
              </Flex>
            </Card>
            <Card title="配音" size="small">
              <Flex vertical gap={8}>
                <VoicePicker
                  language="zh"
                  value={draft.settings.voiceId}
                  onChange={(voiceId) => scroll.changeSettings({ voiceId })}
                  speed={speed}
                  sampleText={draft.text}
                />
                <Flex align="center" gap={12}>
                  <Typography.Text>语速 {speed.toFixed(1)}×</Typography.Text>
                  <Slider
                    ariaLabelForHandle="语速"
                    style={{ flex: 1 }}
                    min={0.5}
                    max={2}
                    step={0.1}
                    value={speed}
                    onChange={(value: number) => scroll.changeSettings({ speed: value })}
                  />
                </Flex>
              </Flex>
            </Card>
            <Card title="背景音乐" size="small">
              <MusicPicker
                value={draft.settings.musicId}
                onChange={(musicId) => scroll.changeSettings({ musicId })}
              />
            </Card>
          </Flex>
        </Col>
      </Row>
    </PageFrame>
  );
}

/**
 * `/video/scroll`: the scrolling video (type 2) on one page, then the shared production and video
 * pages. The user needs the type's template id and a count left (spec section 4).
 */
export function ScrollStep() {
  const user = useAtomValue(currentUserAtom);
  const { limits } = useUsageLimits();
  const [params] = useSearchParams();
  const raw = Number(params.get('workId'));
  const workId = Number.isInteger(raw) && raw > 0 ? raw : null;
  if (!canUseProjectType(user, SCROLL_TYPE)) return <NoPermission type={SCROLL_TYPE} />;
  if (limits && remainingGenerations(limits, SCROLL_TYPE) <= 0)
    return <QuotaUsedUp type={SCROLL_TYPE} />;
  return <ScrollForm workId={workId} />;
}
