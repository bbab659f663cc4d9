import { Result } from 'antd';
import { resultTitle } from '../components/result-title';

export function NoPermissionPage() {
  return (
    <Result status="403" title={resultTitle('无权限')} subTitle="抱歉，您没有权限访问该页面。" />
  );
}
