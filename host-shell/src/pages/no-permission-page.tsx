import { Result } from 'antd';

export function NoPermissionPage() {
  return <Result status="403" title="无权限" subTitle="抱歉，您没有权限访问该页面。" />;
}
