import { Card, Col, Flex, Radio, Row, Slider, Switch, Tooltip, Typography, Button } from 'antd';
import { useAtomValue } from 'jotai';
import { useSearchParams } from '@kol/shared-sdk/router';
import { ProjectType, canUseProjectType, remainingGenerations } from '@kol/shared-sdk';
import { currentUserAtom, usageLimitsAtom, useUsageLimits } from '@kol/shared-sdk/state';
import { PageFrame } from '../../../components/page-frame';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { NoPermission } from '../../../flow-kit/no-permission';
import { QuotaUsedUp } from '../../../flow-kit/quota-used-up';
import { TextSourceCard } from '../../../flow-kit/text-source/components/text-source-card';
import { ImageEngineNote } from '../../../flow-kit/video-settings/components/image-engine-note';
import { CaptionStylePicker } from '../../../flow-kit/video-settings/components/caption-style-picker';
import { MusicPicker } from '../../../flow-kit/video-settings/components/music-picker';
import { MotionSwitch } from '../../../flow-kit/video-settings/components/motion-switch';
import { StylePicker } from '../../../flow-kit/video-settings/components/style-picker';
import { MAX_VIDEO_TEXT_CHARS } from '../../../flow-kit/video-text';
import { VoicePicker } from '../../../flow-kit/voices/components/voice-picker';
import { usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { useComicConfig } from '../api/use-comic-config';
import { COMIC_STEPS, comicFlowStore, flowQuery, type ComicType } from '../comic-flow';
import { useComicFlow } from '../use-comic-flow';

function ComicConfigForm({ type, workId }: { type: ComicType; workId: number | null }) {
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const { store, overseas } = useComicFlow();
  const config = useComicConfig({
    type,
    workId,
    store,
    onSaved: (id) => navigate(`/video/caption${flowQuery(type, id)}`),
  });
  const speed = config.settings.speed ?? 1;

  return (
    <PageFrame
      title={overseas ? '海外漫剪视频 · 视频配置' : '漫剪视频 · 视频配置'}
      steps={<FlowSteps steps={COMIC_STEPS} current={0} />}
      extra={<OverseasSwitch type={type} text={config.text} />}
      actions={
        <Button
          type="primary"
          size={phone ? 'large' : 'middle'}
          loading={config.saving}
          onClick={() => void config.save()}
        >
          下一步：分镜字幕
        </Button>
      }
    >
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={phone ? 24 : 12}>
          <TextSourceCard
            text={config.text}
            onTextChange={config.changeText}
            title={config.title}
            onTitleChange={config.setTitle}
            onChapterPicked={config.rememberChapter}
            problem={config.problem}
            maxChars={MAX_VIDEO_TEXT_CHARS}
            handedOver={config.handedOver}
            overseas={overseas}
          />
        </Col>
        <Col xs={24} lg={phone ? 24 : 12}>
          <Flex vertical gap={16}>
            <Card title="画面" size="small">
              <Flex vertical gap={12}>
                <Radio.Group
                  aria-label="画面比例"
                  optionType="button"
                  value={config.settings.aspect}
                  onChange={(event) => config.changeSettings({ aspect: event.target.value })}
                  options={[
                    { value: '9:16', label: '竖屏 9:16' },
                    { value: '16:9', label: '横屏 16:9' },
                  ]}
                />
                <StylePicker value={config.styleId} onChange={config.changeStyle} />
                <ImageEngineNote />
                <MotionSwitch
                  value={config.settings.motion}
                  byDefault={false}
                  onChange={(motion) => config.changeSettings({ motion })}
                />
              </Flex>
            </Card>
            <Card title="配音" size="small">
              <Flex vertical gap={8}>
                <VoicePicker
                  language={overseas ? 'en' : 'zh'}
                  value={config.settings.voiceId}
                  onChange={(voiceId) => config.changeSettings({ voiceId })}
                  speed={speed}
                  sampleText={config.text}
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
                    onChange={(value: number) => config.changeSettings({ speed: value })}
                  />
                </Flex>
              </Flex>
            </Card>
            <Card title="背景音乐" size="small">
              <MusicPicker
                value={config.settings.musicId}
                onChange={(musicId) => config.changeSettings({ musicId })}
              />
            </Card>
            <Card title="字幕样式" size="small">
              <CaptionStylePicker
                value={config.settings.captionStyle ?? 'classic'}
                onChange={config.changeCaptionStyle}
              />
            </Card>
          </Flex>
        </Col>
      </Row>
    </PageFrame>
  );
}

/**
 * Domestic or overseas: the type lives in the address (`?videoType=5`), which is what the host's
 * quota rule reads. Switching carries the text over when the other flow has none yet.
 */
function OverseasSwitch({ type, text }: { type: ComicType; text: string }) {
  const [params, setParams] = useSearchParams();
  const limits = useAtomValue(usageLimitsAtom);
  const overseas = type === ProjectType.comicsOverseas;
  const other: ComicType = overseas ? ProjectType.comics : ProjectType.comicsOverseas;
  const otherUsedUp = limits !== null && remainingGenerations(limits, other) <= 0;
  const switchTo = (on: boolean) => {
    const target = comicFlowStore(on);
    if (!target.text().trim() && text.trim()) target.setText(text);
    const next = new URLSearchParams(params);
    next.set('videoType', String(on ? ProjectType.comicsOverseas : ProjectType.comics));
    setParams(next, { replace: true });
  };
  return (
    <Tooltip title={otherUsedUp ? `${overseas ? '' : '海外'}漫剪视频的生成次数已用完` : undefined}>
      <Flex align="center" gap={8}>
        <Switch aria-label="海外版" checked={overseas} disabled={otherUsedUp} onChange={switchTo} />
        <Typography.Text>海外版（英文配音与字幕）</Typography.Text>
      </Flex>
    </Tooltip>
  );
}

/**
 * `/video/config` and `/video/configuration` (the same page, from the tools): the comic clip's
 * text and settings. The user needs the type's template id and a count left (spec section 4).
 */
export function ComicConfigStep() {
  const user = useAtomValue(currentUserAtom);
  const { type, workId } = useComicFlow();
  const { limits } = useUsageLimits();
  if (!canUseProjectType(user, type)) return <NoPermission type={type} />;
  if (limits && remainingGenerations(limits, type) <= 0) return <QuotaUsedUp type={type} />;
  return <ComicConfigForm key={type} type={type} workId={workId} />;
}
