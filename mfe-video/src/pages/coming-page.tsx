import { Button, Result } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import { PageFrame } from '../components/page-frame';

interface ComingPageProps {
  /** The type or tool whose pages these are, e.g. 解压视频. */
  name: string;
  outside?: boolean;
}

/**
 * A route of a flow that a later issue builds: it says so plainly and leads back to the hub,
 * rather than the error page of a missing module.
 */
export function ComingPage({ name, outside }: ComingPageProps) {
  return (
    <PageFrame title={name} outside={outside}>
      <Result
        status="info"
        title={`「${name}」的页面即将上线`}
        subTitle="服务端已经可以生成这类视频，制作页面正在开发中。现在可以先制作漫剪视频。"
        extra={
          <Link to="/video">
            <Button type="primary">返回视频合成</Button>
          </Link>
        }
      />
    </PageFrame>
  );
}
