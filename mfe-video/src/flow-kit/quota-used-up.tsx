import { Button, Result } from 'antd';
import { useNavigate } from '@kol/shared-sdk/router';
import { videoTypeLabel } from '@kol/shared-sdk';

/**
 * A composition page of a type with no count left. The spec's rule sends the browser back; the
 * host's session gate does that (it reads the same `usageLimitsAtom` and the page's
 * `?videoType=`), so this page only blocks the work and offers the way back itself: a second
 * `navigate(-1)` from here would go back two pages.
 */
export function QuotaUsedUp({ type }: { type: number }) {
  const navigate = useNavigate();
  const label = videoTypeLabel(type);
  return (
    <Result
      status="warning"
      title={`${label}的生成次数已用完`}
      subTitle="剩余次数与奖励次数都为 0，暂时不能制作。可以在个人中心查看各类型的剩余次数。"
      extra={
        <Button type="primary" onClick={() => navigate(-1)}>
          返回上一页
        </Button>
      }
    />
  );
}
