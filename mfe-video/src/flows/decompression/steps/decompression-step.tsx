import { Col, Row, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useSearchParams } from '@kol/shared-sdk/router';
import { canUseProjectType, remainingGenerations, videoTypeLabel } from '@kol/shared-sdk';
import { currentUserAtom, usageLimitsAtom, useUsageLimits } from '@kol/shared-sdk/state';
import { ConfirmButton } from '../../../components/confirm-button';
import { PageFrame } from '../../../components/page-frame';
import { VideoEstimate } from '../../../components/video-estimate';
import { NoPermission } from '../../../flow-kit/no-permission';
import { QuotaUsedUp } from '../../../flow-kit/quota-used-up';
import { usePhoneLayout } from '../../../lib/phone';
import { useDecompressionForm } from '../api/use-decompression-form';
import { LookAndSoundSection } from '../../../flow-kit/video-settings/components/look-and-sound-section';
import { NarrationSection } from '../components/narration-section';
import { OverseasSwitch } from '../components/overseas-switch';
import { decompressionTypeOf, type DecompressionType } from '../decompression-flow';

function DecompressionForm({ type }: { type: DecompressionType }) {
  const phone = usePhoneLayout();
  const limits = useAtomValue(usageLimitsAtom);
  const form = useDecompressionForm(type);
  const { draft, englishProblem } = form;
  const label = videoTypeLabel(type);
  const left = limits ? remainingGenerations(limits, type) : null;

  return (
    <PageFrame
      title={`${label} · 视频配置`}
      extra={<OverseasSwitch type={type} text={draft.text} />}
      actions={
        <ConfirmButton
          type="primary"
          size={phone ? 'large' : 'middle'}
          prepare={form.prepare}
          confirmTitle="生成视频"
          confirmContent={`将消耗 1 次「${label}」生成次数${left !== null ? `（当前剩余 ${left} 次）` : ''}。生成失败会自动退回次数；中途取消不退回。`}
          okText="确认生成"
          onConfirm={form.render}
          disabled={englishProblem !== null}
          title={englishProblem ?? undefined}
        >
          生成视频{left !== null ? `（剩余 ${left} 次）` : ''}
        </ConfirmButton>
      }
    >
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        旁白朗读文案，背景是一段循环播放的解压画面，字幕逐句显示。生成后可以在片段编辑里逐句修改、重新配音、换背景，再合成。
      </Typography.Paragraph>
      <VideoEstimate ms={form.estimatedMs} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={phone ? 24 : 12}>
          <NarrationSection form={form} />
        </Col>
        <Col xs={24} lg={phone ? 24 : 12}>
          <LookAndSoundSection
            name="decompression-aspect"
            settings={draft.settings}
            overseas={form.overseas}
            sampleText={draft.text}
            onChange={form.changeSettings}
          />
        </Col>
      </Row>
    </PageFrame>
  );
}

/**
 * `/video/decompression` 解压视频: the narration, the looping background (library or upload),
 * voice, speed, music and captions; 生成视频 asks first, and 确认生成 saves the work and spends
 * one count (nothing is made before the creator confirms).
 * The back-guard of spec section 4: no count of the type left blocks the page.
 */
export function DecompressionStep() {
  const user = useAtomValue(currentUserAtom);
  const [params] = useSearchParams();
  const type = decompressionTypeOf(params);
  const { limits } = useUsageLimits();
  if (!canUseProjectType(user, type)) return <NoPermission type={type} />;
  if (limits && remainingGenerations(limits, type) <= 0) return <QuotaUsedUp type={type} />;
  return <DecompressionForm key={type} type={type} />;
}
