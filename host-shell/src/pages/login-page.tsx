import { login } from '@kol/shared-sdk';
import { currentUserAtom, usageLimitsAtom } from '@kol/shared-sdk/state';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Typography } from 'antd';
import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { useNavigate, useSearchParams } from '@kol/shared-sdk/router';
import { safeReturnUrl } from '../session/route-rules';

const LOGIN_MESSAGE_KEY = 'login';

export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const setUser = useSetAtom(currentUserAtom);
  const setLimits = useSetAtom(usageLimitsAtom);
  const queryClient = useQueryClient();
  const [submitting, setSubmitting] = useState(false);
  const { message } = App.useApp();

  const onFinish = async (values: { username: string; password: string }) => {
    setSubmitting(true);
    try {
      const user = await login(values);
      // A new session starts with nothing of the last one: not its counts, nor anything it
      // loaded (another account may have signed in on this tab).
      queryClient.clear();
      setLimits(null);
      setUser(user);
      // A refusal shown before this success must not stay on the page it leads to.
      message.destroy(LOGIN_MESSAGE_KEY);
      navigate(safeReturnUrl(params.get('returnUrl')), { replace: true });
    } catch (error) {
      message.error({
        key: LOGIN_MESSAGE_KEY,
        content: error instanceof Error ? error.message : '登录失败',
      });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16 }}>
      <Card style={{ width: '100%', maxWidth: 380 }}>
        <Typography.Title level={1} style={{ textAlign: 'center', fontSize: 24 }}>
          登录 KOL Studio
        </Typography.Title>
        <Form layout="vertical" onFinish={onFinish} requiredMark={false}>
          <Form.Item
            label="用户名"
            name="username"
            rules={[{ required: true, message: '请输入用户名' }]}
          >
            <Input autoComplete="username" />
          </Form.Item>
          <Form.Item
            label="密码"
            name="password"
            rules={[{ required: true, message: '请输入密码' }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            登录
          </Button>
        </Form>
      </Card>
    </main>
  );
}
