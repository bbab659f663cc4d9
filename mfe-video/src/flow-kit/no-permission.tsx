import { Button, Result } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import { videoTypeLabel } from '@kol/shared-sdk';

/** A flow page of a type the user may not make (template id, functional level). */
export function NoPermission({ type }: { type: number }) {
  return (
    <Result
      // antd's 403 and 404 pictures are drawn in its default blue, off the theme's palette.
      status="warning"
      title="没有权限"
      subTitle={`你没有使用「${videoTypeLabel(type)}」的权限，如需开通请联系我们。`}
      extra={
        <Link to="/video">
          <Button type="primary">返回视频合成</Button>
        </Link>
      }
    />
  );
}
