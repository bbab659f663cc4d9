import { App, Button, Flex, Typography } from 'antd';
import { BetaBadge } from '../components/beta-badge';
import { useNavigate, useSearchParams } from '@kol/shared-sdk/router';
import { startSignOn, useIsSsoHost } from '../session/sign-on';
import { safeReturnUrl } from '../session/route-rules';

/** `/home`: the public landing page. */
export function LandingPage() {
  const navigate = useNavigate();
  const ssoHost = useIsSsoHost();
  const { message } = App.useApp();
  // The page a signed-out visitor asked for (signedOutDestination), handed on to /login.
  const [params] = useSearchParams();
  const returnUrl = safeReturnUrl(params.get('returnUrl'));
  const signIn = () => {
    if (!ssoHost)
      navigate(returnUrl === '/' ? '/login' : `/login?returnUrl=${encodeURIComponent(returnUrl)}`);
    else
      startSignOn().catch((error: unknown) =>
        message.error(error instanceof Error ? error.message : '无法跳转到统一登录'),
      );
  };
  return (
    <main
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
    </main>
  );
}
