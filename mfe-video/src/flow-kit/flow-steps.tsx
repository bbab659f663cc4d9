import { Steps } from 'antd';
import { useMediaQuery } from '@kol/shared-sdk/ui';
import { usePhoneLayout } from '../lib/phone';

/**
 * Where the creator is in a flow: the flow's steps in order (each flow passes its own list), the
 * current one marked (a compact line on a phone page, and on any screen too narrow for the row:
 * six steps in 280 px stood one character a line).
 */
export function FlowSteps({ steps, current }: { steps: readonly string[]; current: number }) {
  const phonePage = usePhoneLayout();
  const narrow = useMediaQuery('(max-width: 575px)');
  const phone = phonePage || narrow;
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
