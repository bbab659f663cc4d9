import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { PAGES } from './pages';

export interface AppProps {
  /** The route claim (from `routes.json`) the host matched. */
  routePath: string;
}

function PageNotFound() {
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="页面不存在"
      subTitle="你访问的页面不存在或已被移除。"
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          返回首页
        </Button>
      }
    />
  );
}

/**
 * The remote's one exposed module (`mfe_writing/App`). It renders inside the host's router, jotai
 * Provider and antd ConfigProvider, and creates none of its own.
 */
export default function App({ routePath }: AppProps) {
  return PAGES.get(routePath) ?? <PageNotFound />;
}
