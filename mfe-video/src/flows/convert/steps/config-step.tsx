import { Alert, Button, Flex, Skeleton, Steps, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { Link, useSearchParams } from '@kol/shared-sdk/router';
import { useTextModel } from '@kol/shared-sdk/ui';
import { canUseProjectType, remainingGenerations } from '@kol/shared-sdk';
import { currentUserAtom, useUsageLimits } from '@kol/shared-sdk/state';
import { PageFrame } from '../../../components/page-frame';
import { VideoEstimate } from '../../../components/video-estimate';
import { useSavedPresets } from '../../../flow-kit/dedup-presets/api/use-saved-presets';
import { NoPermission } from '../../../flow-kit/no-permission';
import { QuotaUsedUp } from '../../../flow-kit/quota-used-up';
import { usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { useConvertDraft } from '../api/use-convert-draft';
import { useConvertForm } from '../api/use-convert-form';
import { RenderSection } from '../components/render-section';
import { ScriptSection } from '../components/script-section';
import { SourceSection } from '../components/source-section';
import { StepActions } from '../components/step-actions';
import {
  CONVERT_STEPS,
  CONVERT_TYPE,
  workIdOf,
  type ConvertDraftUpdate,
  type KeptConvertDraft,
} from '../convert-flow';

const STEP_TITLES = ['上传原视频', '文案与配音', '去重与生成'];

function ConvertForm({ draft, update }: { draft: KeptConvertDraft; update: ConvertDraftUpdate }) {
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const { saved: savedPresets } = useSavedPresets();
  const textModel = useTextModel();
  const form = useConvertForm(draft, update);
  const { step } = form;

  return (
    <PageFrame
      title="反推视频"
      steps={
        <Steps
          size="small"
          current={CONVERT_STEPS.indexOf(step)}
          items={STEP_TITLES.map((title) => ({ title }))}
        />
      }
      actions={
        <StepActions form={form} onStarted={(id) => navigate(`/video/production?workId=${id}`)} />
      }
    >
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        上传一段视频，从它的字幕轨（或语音转写）取出脚本，改写后换上新的配音，再用去重设置处理原画面，合成一条新视频。
      </Typography.Paragraph>
      {form.problem && <Alert type="error" showIcon title={form.problem} />}
      {step !== 'source' && <VideoEstimate ms={form.estimatedMs} />}
      {step === 'source' && (
        <SourceSection
          draft={draft}
          update={update}
          onUploaded={form.sourceUploaded}
          onBusyChange={form.setUploading}
        />
      )}
      {step === 'script' && (
        <ScriptSection
          draft={draft}
          update={update}
          form={form}
          textModel={textModel}
          phone={phone}
        />
      )}
      {step === 'render' && (
        <RenderSection
          settings={draft.settings}
          savedPresets={savedPresets}
          onChange={form.changeSettings}
        />
      )}
    </PageFrame>
  );
}

/** The draft of the work in the address (read from the server in a fresh tab), or a new one. */
function ConvertDraftLoader({ workId }: { workId: number | null }) {
  const { draft, loadError, update, retry } = useConvertDraft(workId);
  if (loadError) {
    return (
      <PageFrame title="反推视频">
        <Alert
          type="error"
          showIcon
          title={loadError}
          action={
            <Flex gap={8}>
              <Button size="small" onClick={retry}>
                重新加载
              </Button>
              <Link to="/convertConfig">
                <Button size="small" type="primary">
                  新建反推视频
                </Button>
              </Link>
            </Flex>
          }
        />
      </PageFrame>
    );
  }
  if (!draft) {
    return (
      <PageFrame title="反推视频">
        <Skeleton active />
      </PageFrame>
    );
  }
  return <ConvertForm draft={draft} update={update} />;
}

/**
 * `/convertConfig` 反推视频: upload the source, read and rewrite its script, choose the voice,
 * the de-duplication presets, render. Functional level 0 (or no template) cannot use it (spec
 * section 6; the host hides the entry, the page checks too); no count left blocks it.
 */
export function ConvertConfigStep() {
  const user = useAtomValue(currentUserAtom);
  const [params] = useSearchParams();
  const workId = workIdOf(params);
  const { limits } = useUsageLimits();
  if (!canUseProjectType(user, CONVERT_TYPE)) return <NoPermission type={CONVERT_TYPE} />;
  if (limits && remainingGenerations(limits, CONVERT_TYPE) <= 0) {
    return <QuotaUsedUp type={CONVERT_TYPE} />;
  }
  return <ConvertDraftLoader key={workId ?? 'new'} workId={workId} />;
}
