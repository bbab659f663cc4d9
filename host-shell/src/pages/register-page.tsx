import { register } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { App, Button, Card, Form, Input, Radio, Typography } from 'antd';
import { useAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { useNavigate } from '@kol/shared-sdk/router';

interface RegisterForm {
  nickname: string;
  phone: string;
  invitationCode?: string;
  questionnaire?: number;
}

/** `/register`: a user whose status is 0 completes registration. */
export function RegisterPage() {
  const [user, setUser] = useAtom(currentUserAtom);
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);
  const { message } = App.useApp();

  useEffect(() => {
    if (user && user.status !== 0) navigate('/', { replace: true });
  }, [user, navigate]);

  const onFinish = async (values: RegisterForm) => {
    setSubmitting(true);
    try {
      setUser(await register({ ...values, invitationCode: values.invitationCode || undefined }));
      message.success('注册完成');
    } catch (error) {
      message.error(error instanceof Error ? error.message : '注册失败');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16 }}>
      <Card style={{ width: '100%', maxWidth: 420 }}>
        <Typography.Title level={1} style={{ fontSize: 24 }}>
          完善注册信息
        </Typography.Title>
        <Form<RegisterForm>
          layout="vertical"
          onFinish={onFinish}
          initialValues={{ nickname: user?.nickname }}
        >
          <Form.Item
            label="昵称"
            name="nickname"
            rules={[
              { required: true, message: '请输入昵称' },
              { max: 32, message: '昵称不能超过 32 个字' },
            ]}
          >
            <Input />
          </Form.Item>
          <Form.Item
            label="手机号"
            name="phone"
            rules={[
              { required: true, message: '请输入手机号' },
              { pattern: /^1\d{10}$/, message: '请输入 11 位手机号' },
            ]}
          >
            <Input inputMode="numeric" />
          </Form.Item>
          <Form.Item
            label="邀请码（选填）"
            name="invitationCode"
            rules={[{ max: 32, message: '邀请码不能超过 32 个字符' }]}
          >
            <Input />
          </Form.Item>
          <Form.Item label="您主要创作哪类内容？" name="questionnaire">
            <Radio.Group>
              <Radio value={0}>推文文案</Radio>
              <Radio value={1}>短视频</Radio>
              <Radio value={2}>两者都有</Radio>
            </Radio.Group>
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            完成注册
          </Button>
        </Form>
      </Card>
    </main>
  );
}
