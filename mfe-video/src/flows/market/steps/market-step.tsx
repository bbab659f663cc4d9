import {
  App,
  Button,
  Card,
  Flex,
  Input,
  Radio,
  Result,
  Slider,
  Spin,
  Steps,
  Typography,
} from 'antd';
import { useAtomValue } from 'jotai';
import { useParams } from '@kol/shared-sdk/router';
import {
  DEFAULT_CALL_TO_ACTION,
  canUseProjectType,
  estimateMarketMs,
  findMarketTemplate,
  marketNarration,
  narrationVoiceOf,
  remainingGenerations,
} from '@kol/shared-sdk';
import { currentUserAtom, useUsageLimits } from '@kol/shared-sdk/state';
import { PageFrame } from '../../../components/page-frame';
import { VideoEstimate } from '../../../components/video-estimate';
import { GenerateVideoButton } from '../../../flow-kit/generate-video/components/generate-video-button';
import { NoPermission } from '../../../flow-kit/no-permission';
import { QuotaUsedUp } from '../../../flow-kit/quota-used-up';
import { MusicPicker } from '../../../flow-kit/video-settings/components/music-picker';
import { VoicePicker } from '../../../flow-kit/voices/components/voice-picker';
import { usePageNavigate } from '../../../lib/phone';
import { useMarketVideo } from '../api/use-market-video';
import { EndCardPreview } from '../components/end-card-preview';
import { PictureList } from '../components/picture-list';
import { TemplatePicker } from '../components/template-picker';
import {
  CALL_TO_ACTION_KEY,
  MARKET_SEGMENTS,
  MARKET_STEP_TITLES,
  MARKET_TYPE,
  MAX_CALL_TO_ACTION_CHARS,
  MAX_FIELD_CHARS,
  contentFields,
  marketPath,
  missingFieldsProblem,
  productNameOf,
  segmentOf,
  type MarketSegment,
} from '../market-flow';

function MarketFlow({ segment, workId }: { segment: MarketSegment; workId: number | null }) {
  const navigate = usePageNavigate();
  const { message } = App.useApp();
  const market = useMarketVideo(workId);
  const step = MARKET_SEGMENTS.indexOf(segment);
  const go = (to: MarketSegment) => navigate(marketPath(to, market.draft?.workId ?? workId));

  if (!market.draft) {
    return market.loadError ? (
      <Result status="error" title="作品读取失败" subTitle={market.loadError} />
    ) : (
      <Spin aria-label="正在读取作品" />
    );
  }
  const { template, settings } = market;

  /** Leaving a step forward checks what it asked for; going back never does. */
  const next = () => {
    if (segment === 'template' && !template) {
      void message.error('请先选择营销模板');
      return;
    }
    if (segment === 'content' && template) {
      const problem = missingFieldsProblem(template, market.fields);
      if (problem) {
        void message.error(problem);
        return;
      }
    }
    const following = MARKET_SEGMENTS[step + 1];
    if (following) go(following);
  };
  const back = MARKET_SEGMENTS[step - 1];
  const callToAction =
    settings.callToAction?.trim() ||
    market.fields[CALL_TO_ACTION_KEY]?.trim() ||
    DEFAULT_CALL_TO_ACTION;
  const speed = settings.speed ?? 1;
  // The template's script from the fields (the page leaves the work's text empty for it), then
  // the call to action over the end card, in the voice the server will use: the video's length.
  const script = template ? findMarketTemplate(template.id) : null;
  const estimatedMs = script
    ? estimateMarketMs(
        marketNarration({
          template: script,
          fields: market.fields,
          text: '',
          callToAction: settings.callToAction,
        }),
        { voiceId: narrationVoiceOf(MARKET_TYPE, settings.voiceId), speed },
      )
    : 0;

  const actions = (
    <Flex gap={8} justify="flex-end" wrap>
      {back && <Button onClick={() => go(back)}>上一步</Button>}
      {segment !== 'voice' ? (
        <Button type="primary" onClick={next}>
          下一步：{MARKET_STEP_TITLES[MARKET_SEGMENTS[step + 1] as MarketSegment]}
        </Button>
      ) : (
        <GenerateVideoButton
          workId={async () => {
            const id = await market.save();
            // The work in the address: a reload or a retry goes on with it, not a second work.
            if (id !== null && id !== workId) navigate(marketPath('voice', id), { replace: true });
            return id;
          }}
          type={MARKET_TYPE}
          prepare={market.check}
          onStarted={(_taskId, id) => navigate(`/video/production?workId=${id}`)}
        />
      )}
    </Flex>
  );

  return (
    <PageFrame
      title="营销视频"
      outside
      extra={<VideoEstimate ms={estimatedMs} />}
      steps={
        <Steps
          size="small"
          current={step}
          responsive={false}
          aria-label="制作步骤"
          items={MARKET_SEGMENTS.map((s) => ({ title: MARKET_STEP_TITLES[s] }))}
        />
      }
      actions={actions}
    >
      {segment === 'template' && (
        <TemplatePicker
          templates={market.templates}
          error={market.templatesError}
          value={template?.id ?? null}
          onChange={market.chooseTemplate}
        />
      )}
      {segment === 'content' &&
        (template ? (
          <Card title={`模板「${template.name}」的内容`} size="small">
            <Flex vertical gap={12}>
              {contentFields(template).map((field) => (
                <Flex key={field.key} vertical gap={4}>
                  <Typography.Text>
                    {field.label}
                    {field.required ? (
                      <Typography.Text type="danger"> *必填</Typography.Text>
                    ) : null}
                  </Typography.Text>
                  <Input.TextArea
                    aria-label={field.label}
                    autoSize={{ minRows: 1, maxRows: 4 }}
                    maxLength={MAX_FIELD_CHARS}
                    value={market.fields[field.key] ?? ''}
                    onChange={(event) => market.changeField(field.key, event.target.value)}
                  />
                </Flex>
              ))}
            </Flex>
          </Card>
        ) : (
          <Result status="info" title="请先选择营销模板" />
        ))}
      {segment === 'pictures' && (
        <Card title="图片（按顺序展示）" size="small">
          <PictureList
            pictures={market.pictures}
            uploads={market.uploads}
            onAdd={(files) => void market.addPictures(files)}
            onMove={market.movePicture}
            onRemove={market.removePicture}
          />
        </Card>
      )}
      {segment === 'voice' && (
        <Flex gap={16} wrap>
          <Flex vertical gap={16} style={{ flex: '1 1 360px' }}>
            <Card title="画面比例" size="small">
              <Radio.Group
                aria-label="画面比例"
                optionType="button"
                value={settings.aspect}
                onChange={(event) => market.changeSettings({ aspect: event.target.value })}
                options={[
                  { value: '9:16', label: '竖屏 9:16' },
                  { value: '16:9', label: '横屏 16:9' },
                ]}
              />
            </Card>
            <Card title="配音" size="small">
              <Flex vertical gap={8}>
                <VoicePicker
                  language="zh"
                  value={settings.voiceId}
                  onChange={(voiceId) => market.changeSettings({ voiceId })}
                  speed={speed}
                  sampleText={template ? productNameOf(template, market.fields) : ''}
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
                    onChange={(value: number) => market.changeSettings({ speed: value })}
                  />
                </Flex>
              </Flex>
            </Card>
            <Card title="背景音乐" size="small">
              <MusicPicker
                value={settings.musicId}
                onChange={(musicId) => market.changeSettings({ musicId })}
              />
            </Card>
          </Flex>
          <Card title="片尾" size="small" style={{ flex: '0 1 320px' }}>
            <Flex vertical gap={12}>
              <Input
                aria-label="行动号召"
                placeholder={`例如：马上抢购（不填则为「${DEFAULT_CALL_TO_ACTION}」）`}
                maxLength={MAX_CALL_TO_ACTION_CHARS}
                showCount
                value={settings.callToAction ?? market.fields[CALL_TO_ACTION_KEY] ?? ''}
                onChange={(event) => market.changeSettings({ callToAction: event.target.value })}
              />
              <EndCardPreview
                productName={template ? productNameOf(template, market.fields) : ''}
                callToAction={callToAction}
                portrait={settings.aspect !== '16:9'}
              />
              <Typography.Text type="secondary">
                片尾在最后念出行动号召时显示；{market.pictures.length} 张图片按顺序在前。
              </Typography.Text>
            </Flex>
          </Card>
        </Flex>
      )}
    </PageFrame>
  );
}

/**
 * `/video/market/:segment?/:id?` (outside the layout): the marketing video (type 4) in four
 * steps, then the shared production and video pages. `:segment` and `:id` reopen a step of an
 * existing work. The user needs the type's template id and a count left (spec section 4).
 */
export function MarketStep() {
  const user = useAtomValue(currentUserAtom);
  const { limits } = useUsageLimits();
  const params = useParams();
  const raw = Number(params.id);
  const workId = Number.isInteger(raw) && raw > 0 ? raw : null;
  if (!canUseProjectType(user, MARKET_TYPE)) return <NoPermission type={MARKET_TYPE} />;
  if (limits && remainingGenerations(limits, MARKET_TYPE) <= 0)
    return <QuotaUsedUp type={MARKET_TYPE} />;
  // No key by work: the work made on 确认生成 enters the address while its dialog stays open.
  return <MarketFlow segment={segmentOf(params.segment)} workId={workId} />;
}
