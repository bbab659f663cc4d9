import { Button, Result } from 'antd';
import { useNavigate } from '@kol/shared-sdk/router';
import { resultTitle } from '../components/result-title';

export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <Result
      // antd's 403 and 404 pictures are drawn in its default blue, off the theme's palette.
      status="warning"
      title={resultTitle('页面不存在')}
      subTitle="您访问的页面不存在或已被移动。"
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          返回首页
        </Button>
      }
    />
  );
}
