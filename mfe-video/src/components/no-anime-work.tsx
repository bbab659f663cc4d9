import { Alert } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import { pagePath, usePhoneLayout } from '../lib/phone';
import { AnimeFlowSteps } from './flow-steps';
import { PageFrame } from './page-frame';

/** An anime step opened without its work (no `?workId=`): the way back to the first step. */
export function NoAnimeWork({ title }: { title: string }) {
  const phone = usePhoneLayout();
  return (
    <PageFrame title={title} steps={<AnimeFlowSteps current={0} />}>
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
