import { Button, Result } from 'antd';
import { resultTitle } from '../components/result-title';

/** Shown when a page's code fails to load; the rest of the shell keeps working. */
export function ErrorPage({
  title = '页面加载失败',
  detail = '网络异常或模块暂时不可用，请稍后重试。',
  onRetry,
}: {
  title?: string;
  detail?: string;
  onRetry?: () => void;
}) {
  return (
    <Result
      status="error"
      title={resultTitle(title)}
      subTitle={detail}
      extra={
        <Button type="primary" onClick={onRetry ?? (() => window.location.reload())}>
          重试
        </Button>
      }
    />
  );
}
