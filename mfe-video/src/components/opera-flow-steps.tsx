import { Steps } from 'antd';
import { usePhoneLayout } from '../lib/phone';

/** The real-person drama's steps, in order. */
export const OPERA_STEPS = ['视频配置', '剧本台词', '角色配音', '场景素材', '生成'] as const;

/** Where the creator is in the real-person drama flow (a compact line on a phone). */
export function OperaFlowSteps({ current }: { current: number }) {
  const phone = usePhoneLayout();
  return (
    <Steps
      size="small"
      current={current}
      responsive={false}
      type={phone ? 'inline' : 'default'}
      aria-label="制作步骤"
      items={OPERA_STEPS.map((title) => ({ title }))}
    />
  );
}
