import { Alert, App, Button, Card, Col, Flex, Input, Radio, Row, Skeleton, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { canUseProjectType, remainingGenerations, errorMessage } from '@kol/shared-sdk';
import { currentUserAtom, useUsageLimits } from '@kol/shared-sdk/state';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import { PageFrame } from '../../../components/page-frame';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { NoPermission } from '../../../flow-kit/no-permission';
import { QuotaUsedUp } from '../../../flow-kit/quota-used-up';
import { CaptionStylePicker } from '../../../flow-kit/video-settings/components/caption-style-picker';
import { MusicPicker } from '../../../flow-kit/video-settings/components/music-picker';
import { usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { saveOperaWork, titleToSave } from '../api/save-opera-work';
import { useOperaDraft } from '../api/use-opera-draft';
import { OPERA_STEPS, OPERA_TYPE, operaQuery, type OperaSettings } from '../opera-flow';

const MAX_TITLE_CHARS = 100;

function OperaConfigForm() {
  const { message } = App.useApp();
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const { draft, update, error, reload, savedBase, savedProblem, takeNewest, revisionedSave } =
    useOperaDraft();

  // Once at a time: a double click on 下一步 makes one work.
  const { run: next, busy: saving } = useSingleFlight(async () => {
    if (!draft) return;
    try {
      const over = draft.workId === null ? null : await savedBase();
      if (draft.workId !== null && !over) {
        void message.error(savedProblem());
        return;
      }
      const title = titleToSave(draft);
      const now = await saveOperaWork(draft, title, over, revisionedSave, (made) => {
        // Kept with the draft: the next save, after a reload too, is based on this revision.
        update((current) => ({ ...current, workId: made.workId, saved: made }));
        // The work in the address too: a retry or a reload goes on with it.
        if (made.workId !== draft.workId) {
          navigate(`/video/operaConfig${operaQuery(made.workId)}`, { replace: true });
        }
      });
      if (!now) {
        // The person chose the work as saved elsewhere: it replaces the draft.
        await takeNewest();
        return;
      }
      update((current) => ({ ...current, title }));
      navigate(`/video/operaCaption${operaQuery(now.workId)}`);
    } catch (reason) {
      void message.error(errorMessage(reason));
    }
  });

  if (error) {
    return (
      <Alert
        type="error"
        showIcon
        title={`作品加载失败：${error}`}
        action={
          <Button size="small" onClick={reload}>
            重新加载
          </Button>
        }
      />
    );
  }
  if (!draft) return <Skeleton active />;

  const change = (patch: Partial<OperaSettings>) =>
    update((current) => ({ ...current, settings: { ...current.settings, ...patch } }));

  return (
    <PageFrame
      title="真人短剧 · 视频配置"
      steps={<FlowSteps steps={OPERA_STEPS} current={0} />}
      actions={
        <Button
          type="primary"
          size={phone ? 'large' : 'middle'}
          loading={saving}
          onClick={() => void next()}
        >
          下一步：剧本台词
        </Button>
      }
    >
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        用自己拍的视频或照片分场景，写好每个场景里各角色的台词，每个角色用自己的配音朗读，字幕按「角色：台词」逐句显示，各场景按顺序合成。
      </Typography.Paragraph>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={phone ? 24 : 12}>
          <Flex vertical gap={16}>
            <Card title="作品" size="small">
              <Input
                aria-label="作品标题"
                placeholder="不填则取第一句台词"
                maxLength={MAX_TITLE_CHARS}
                showCount
                value={draft.title}
                onChange={(event) =>
                  update((current) => ({ ...current, title: event.target.value }))
                }
              />
            </Card>
            <Card title="画面" size="small">
              <Radio.Group
                aria-label="画面比例"
                name="opera-aspect"
                optionType="button"
                value={draft.settings.aspect}
                onChange={(event) =>
                  change({ aspect: event.target.value as OperaSettings['aspect'] })
                }
                options={[
                  { value: '9:16', label: '竖屏 9:16' },
                  { value: '16:9', label: '横屏 16:9' },
                ]}
              />
              <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0', fontSize: 12 }}>
                每个场景的视频或照片会缩放并裁切到这个比例。
              </Typography.Paragraph>
            </Card>
            <Card title="字幕样式" size="small">
              <Flex vertical gap={6}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  字幕逐句显示为「角色：台词」，例如「小明：你好。」
                </Typography.Text>
                <CaptionStylePicker
                  value={draft.settings.captionStyle ?? 'classic'}
                  onChange={(captionStyle) => change({ captionStyle })}
                />
              </Flex>
            </Card>
          </Flex>
        </Col>
        <Col xs={24} lg={phone ? 24 : 12}>
          <Card title="背景音乐" size="small">
            <MusicPicker
              value={draft.settings.musicId}
              onChange={(musicId) =>
                update((current) => {
                  const settings = { ...current.settings };
                  // No choice lets the server pick its default track.
                  if (musicId === undefined) delete settings.musicId;
                  else settings.musicId = musicId;
                  return { ...current, settings };
                })
              }
            />
          </Card>
        </Col>
      </Row>
    </PageFrame>
  );
}

/**
 * `/video/operaConfig` 真人短剧 · 视频配置: the drama's title, aspect, music and caption style;
 * 下一步 makes the work. With no count of the type left the page is blocked (the host's guard
 * sends the browser back, spec section 4).
 */
export function OperaConfigStep() {
  const user = useAtomValue(currentUserAtom);
  const { limits } = useUsageLimits();
  if (!canUseProjectType(user, OPERA_TYPE)) return <NoPermission type={OPERA_TYPE} />;
  if (limits && remainingGenerations(limits, OPERA_TYPE) <= 0) {
    return <QuotaUsedUp type={OPERA_TYPE} />;
  }
  return <OperaConfigForm />;
}
