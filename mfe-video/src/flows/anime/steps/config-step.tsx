import { Alert, Button, Card, Col, Flex, Radio, Row, Skeleton, Slider, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useSearchParams } from '@kol/shared-sdk/router';
import {
  ANIME_NARRATOR,
  canUseProjectType,
  defaultVoiceIds,
  remainingGenerations,
} from '@kol/shared-sdk';
import { currentUserAtom, useUsageLimits } from '@kol/shared-sdk/state';
import { PageFrame } from '../../../components/page-frame';
import { VideoEstimate } from '../../../components/video-estimate';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { NoPermission } from '../../../flow-kit/no-permission';
import { QuotaUsedUp } from '../../../flow-kit/quota-used-up';
import { CaptionStylePicker } from '../../../flow-kit/video-settings/components/caption-style-picker';
import { MusicPicker } from '../../../flow-kit/video-settings/components/music-picker';
import { MotionSwitch } from '../../../flow-kit/video-settings/components/motion-switch';
import { StylePicker } from '../../../flow-kit/video-settings/components/style-picker';
import { VoicePicker } from '../../../flow-kit/voices/components/voice-picker';
import { useVoices } from '../../../hooks/use-voices';
import { usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { ANIME_STEPS, ANIME_TYPE, animeQuery, workIdOf } from '../anime-flow';
import { charactersOf, estimateScriptMs, scriptGenders } from '../anime-script';
import { useAnimeConfig } from '../api/use-anime-config';
import { NoAnimeWork } from '../components/no-anime-work';

function AnimeConfigForm({ workId }: { workId: number }) {
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const config = useAnimeConfig(workId);
  const query = animeQuery(workId);
  const { settings, lines } = config;
  const speed = settings?.speed ?? 1;
  const characters = charactersOf(lines);
  const zhVoices = useVoices('zh');
  // Each character without a chosen voice starts with the default of their gender, as the
  // server would speak them (the narrator's voice counts as taken).
  const defaults = defaultVoiceIds(
    [ANIME_NARRATOR, ...characters.map((character) => character.name)],
    { ...settings?.roleVoices, [ANIME_NARRATOR]: settings?.voiceId },
    zhVoices.voices,
    scriptGenders(lines),
  );
  const firstLineOf = (speaker: string) => lines.find((line) => line.speaker === speaker)?.text;

  const next = async () => {
    if (await config.flush()) navigate(`/video/animeCharacter${query}`);
  };

  return (
    <PageFrame
      title="AI漫剧 · 视频配置"
      steps={<FlowSteps steps={ANIME_STEPS} current={2} />}
      extra={
        <Typography.Text type="secondary" aria-label="保存状态">
          {config.saving ? '保存中…' : '修改会自动保存'}
        </Typography.Text>
      }
      actions={
        <>
          <Button onClick={() => navigate(`/video/animeCaption${query}`)}>上一步</Button>
          <Button
            type="primary"
            size={phone ? 'large' : 'middle'}
            disabled={!settings}
            loading={config.saving}
            onClick={() => void next()}
          >
            下一步：角色
          </Button>
        </>
      }
    >
      {config.loadError && (
        <Alert
          type="error"
          showIcon
          title={`作品加载失败：${config.loadError}`}
          action={
            <Button size="small" onClick={config.reload}>
              重新加载
            </Button>
          }
        />
      )}
      {config.saveError && <Alert type="error" showIcon role="alert" title={config.saveError} />}
      {!settings && !config.loadError && <Skeleton active />}
      {settings && <VideoEstimate ms={estimateScriptMs(lines, settings)} />}
      {settings && (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={phone ? 24 : 12}>
            <Flex vertical gap={16}>
              <Card title="画面" size="small">
                <Flex vertical gap={12}>
                  <Radio.Group
                    aria-label="画面比例"
                    optionType="button"
                    value={settings.aspect}
                    onChange={(event) => config.change({ aspect: event.target.value })}
                    options={[
                      { value: '9:16', label: '竖屏 9:16' },
                      { value: '16:9', label: '横屏 16:9' },
                    ]}
                  />
                  <StylePicker
                    value={settings.imageStyleId ?? 0}
                    onChange={(imageStyleId) => config.change({ imageStyleId })}
                  />
                  <MotionSwitch
                    value={settings.motion}
                    byDefault
                    onChange={(motion) => config.change({ motion })}
                  />
                </Flex>
              </Card>
              <Card title="背景音乐" size="small">
                <MusicPicker
                  value={settings.musicId}
                  onChange={(musicId) => config.change({ musicId })}
                />
              </Card>
              <Card title="字幕样式" size="small">
                <CaptionStylePicker
                  value={settings.captionStyle ?? 'classic'}
                  onChange={(captionStyle) => config.change({ captionStyle })}
                />
              </Card>
            </Flex>
          </Col>
          <Col xs={24} lg={phone ? 24 : 12}>
            <Card title="角色配音" size="small">
              <Flex vertical gap={12}>
                <Typography.Text type="secondary">
                  每个角色用自己的音色朗读台词，试听说的是该角色的第一句台词。两个角色选了同一音色时，后一个语速会稍有不同以便区分。
                </Typography.Text>
                <Flex vertical gap={4} role="group" aria-label="旁白">
                  <Typography.Text strong>{ANIME_NARRATOR}</Typography.Text>
                  <VoicePicker
                    language="zh"
                    label="旁白的配音"
                    auditionLabel="试听旁白"
                    value={settings.voiceId}
                    onChange={(voiceId) => {
                      if (voiceId !== settings.voiceId) config.change({ voiceId });
                    }}
                    speed={speed}
                    sampleText={firstLineOf(ANIME_NARRATOR)}
                  />
                </Flex>
                {characters.map((character) => (
                  <Flex
                    key={character.name}
                    vertical
                    gap={4}
                    role="group"
                    aria-label={`角色 ${character.name}`}
                  >
                    <Typography.Text strong>
                      {character.name}
                      <Typography.Text type="secondary">
                        {' '}
                        · {character.lines} 行台词
                      </Typography.Text>
                    </Typography.Text>
                    <VoicePicker
                      language="zh"
                      label={`${character.name}的配音`}
                      auditionLabel={`试听${character.name}`}
                      defaultVoiceId={defaults[character.name]}
                      engineNote={false}
                      value={settings.roleVoices?.[character.name]}
                      onChange={(voiceId) => config.setRoleVoice(character.name, voiceId)}
                      speed={speed}
                      sampleText={firstLineOf(character.name)}
                    />
                  </Flex>
                ))}
                {characters.length === 0 && (
                  <Typography.Text type="secondary">
                    剧本里只有旁白：回到剧本为台词选择说话的角色，就能为每个角色选择配音。
                  </Typography.Text>
                )}
                <Flex align="center" gap={12}>
                  <Typography.Text>语速 {speed.toFixed(1)}×</Typography.Text>
                  <Slider
                    ariaLabelForHandle="语速"
                    style={{ flex: 1 }}
                    min={0.5}
                    max={2}
                    step={0.1}
                    value={speed}
                    onChange={(value: number) => config.change({ speed: value })}
                  />
                </Flex>
              </Flex>
            </Card>
          </Col>
        </Row>
      )}
    </PageFrame>
  );
}

/**
 * `/video/animeConfig` 视频配置: picture, music, captions and a voice per character. A composition
 * configuration page: with no count left for the type, the spec's back-guard (see QuotaUsedUp).
 */
export function AnimeConfigStep() {
  const user = useAtomValue(currentUserAtom);
  const [params] = useSearchParams();
  const workId = workIdOf(params);
  const { limits } = useUsageLimits();
  if (!canUseProjectType(user, ANIME_TYPE)) return <NoPermission type={ANIME_TYPE} />;
  if (limits && remainingGenerations(limits, ANIME_TYPE) <= 0) {
    return <QuotaUsedUp type={ANIME_TYPE} />;
  }
  if (workId === null) return <NoAnimeWork title="AI漫剧 · 视频配置" />;
  return <AnimeConfigForm key={workId} workId={workId} />;
}
