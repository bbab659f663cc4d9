import { Result } from 'antd';
import { resultTitle } from '../components/result-title';

export function NoPermissionPage() {
  return (
    <Result
      // antd's 403 picture is drawn in its default blue, off the theme's palette.
      status="warning"
      title={resultTitle('无权限')}
      subTitle="抱歉，您没有权限访问该页面。"
    />
  );
}
