import { Flex, Switch, Typography } from 'antd';
import { useServices } from '@kol/shared-sdk/ui';

interface MotionSwitchProps {
  /** The work's `motion` setting; absent: the type's default. */
  value: boolean | undefined;
  /** Whether the type moves when the creator did not say (the anime short does, the comic not). */
  byDefault: boolean;
  onChange: (motion: boolean) => void;
}

/**
 * 动态镜头: whether each shot's picture becomes a clip of the installation's video service.
 * Shown only where a video service is configured: offline there is nothing to choose, and the
 * stills move with pan and zoom as always.
 */
export function MotionSwitch({ value, byDefault, onChange }: MotionSwitchProps) {
  const services = useServices();
  if (!services?.clips) return null;
  return (
    <Flex vertical gap={4}>
      <Flex align="center" gap={8}>
        <Switch aria-label="动态镜头" checked={value ?? byDefault} onChange={onChange} />
        <Typography.Text>动态镜头</Typography.Text>
      </Flex>
      <Typography.Text type="secondary">
        由 {services.clips}{' '}
        把每个分镜的画面生成为动态视频；生成失败的镜头用静态画面加推拉代替，可单独重新生成
      </Typography.Text>
    </Flex>
  );
}
