import { App, Button, Flex, Typography } from 'antd';
import { BetaBadge } from '../components/beta-badge';
import { useNavigate } from '@kol/shared-sdk/router';
import { startSignOn, useIsSsoHost } from '../session/sign-on';

/** `/home`: the public landing page. */
export function LandingPage() {
  const navigate = useNavigate();
  const ssoHost = useIsSsoHost();
  const { message } = App.useApp();
  const signIn = () => {
    if (!ssoHost) navigate('/login');
    else
      startSignOn().catch((error: unknown) =>
        message.error(error instanceof Error ? error.message : '无法跳转到统一登录'),
      );
  };
  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        padding: 24,
        textAlign: 'center',
      }}
    >
      <Flex vertical align="center" gap="large">
        <Typography.Title>
          KOL Studio <BetaBadge />
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ fontSize: 16 }}>
          把网文变成推文与短视频：一键成文、创意写作、漫剪、AI漫剧、解压、滚屏、营销视频。
        </Typography.Paragraph>
        <Button type="primary" size="large" onClick={signIn}>
          登录
        </Button>
      </Flex>
    </div>
  );
}
