import { Alert } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import { PageFrame } from '../../../components/page-frame';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { pagePath, usePhoneLayout } from '../../../lib/phone';
import { ANIME_STEPS } from '../anime-flow';

/** An anime step opened without its work (no `?workId=`): the way back to the first step. */
export function NoAnimeWork({ title }: { title: string }) {
  const phone = usePhoneLayout();
  return (
    <PageFrame title={title} steps={<FlowSteps steps={ANIME_STEPS} current={0} />}>
      <Alert
        type="warning"
        showIcon
        title="还没有剧本"
        description={
          <Link to={pagePath('/video/animeInspiration', phone)}>先去填写创意并改编成剧本</Link>
        }
      />
    </PageFrame>
  );
}
