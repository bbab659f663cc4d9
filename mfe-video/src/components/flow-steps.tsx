import { Steps } from 'antd';
import { usePhoneLayout } from '../lib/phone';

/** The comic clip's steps, in order. */
export const COMIC_STEPS = ['视频配置', '分镜字幕', '角色', '分镜画面', '生成'] as const;

/** Where the creator is in the comic clip flow (a compact line on a phone). */
export function ComicFlowSteps({ current }: { current: number }) {
  const phone = usePhoneLayout();
  return (
    <Steps
      size="small"
      current={current}
      responsive={false}
      type={phone ? 'inline' : 'default'}
      aria-label="制作步骤"
      items={COMIC_STEPS.map((title) => ({ title }))}
    />
  );
}

/** The anime short's steps, in order. */
export const ANIME_STEPS = ['创意', '剧本', '视频配置', '角色', '分镜', '成片检查'] as const;

/** Where the creator is in the anime short flow. */
export function AnimeFlowSteps({ current }: { current: number }) {
  const phone = usePhoneLayout();
  return (
    <Steps
      size="small"
      current={current}
      responsive={false}
      type={phone ? 'inline' : 'default'}
      aria-label="制作步骤"
      items={ANIME_STEPS.map((title) => ({ title }))}
    />
  );
}
