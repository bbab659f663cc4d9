import { Steps } from 'antd';
import { usePhoneLayout } from '../lib/phone';

/**
 * Where the creator is in a flow: the flow's steps in order (each flow passes its own list), the
 * current one marked (a compact line on a phone).
 */
export function FlowSteps({ steps, current }: { steps: readonly string[]; current: number }) {
  const phone = usePhoneLayout();
  return (
    <Steps
      size="small"
      current={current}
      responsive={false}
      type={phone ? 'inline' : 'default'}
      aria-label="制作步骤"
      items={steps.map((title) => ({ title }))}
    />
  );
}
