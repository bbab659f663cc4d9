import { errorMessage } from '@kol/shared-sdk';
import { Alert, Button, Form, Input, Typography, message } from 'antd';
import type { UserInfo } from '@kol/shared-sdk';
import { useSaveUserInfo } from '../../../hooks/use-save-user-info';
import { homePageUrlRules } from '../validation';

interface PostingAccountValues {
  homePageUrl: string;
}

interface PostingAccountFormProps {
  user: UserInfo;
}

/**
 * The posting account (`homePageUrl`). Saving puts the answered user in `currentUserAtom`, which
 * is what stops the shell's "友情提示" prompt.
 */
export function PostingAccountForm({ user }: PostingAccountFormProps) {
  const [form] = Form.useForm<PostingAccountValues>();
  const [messageApi, messageHolder] = message.useMessage();
  const { save, saving } = useSaveUserInfo();

  const onFinish = async (values: PostingAccountValues) => {
    try {
      await save({ homePageUrl: values.homePageUrl });
      void messageApi.success('发布账号已保存');
    } catch (error) {
      void messageApi.error(errorMessage(error));
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={{ homePageUrl: user.homePageUrl }}
      onFinish={onFinish}
      name="posting-account"
    >
      {messageHolder}
      <Typography.Paragraph type="secondary">
        发布账号主页是你发布作品所用平台（如抖音、快手、小红书）上的创作者主页链接。
      </Typography.Paragraph>
      {user.homePageUrl === '' && (
        <Alert
          type="warning"
          showIcon
          title="尚未填写发布账号主页，请填写后保存。"
          style={{ marginBottom: 16 }}
        />
      )}
      <Form.Item label="发布账号主页" name="homePageUrl" rules={homePageUrlRules}>
        <Input placeholder="https://" inputMode="url" autoComplete="url" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        保存发布账号
      </Button>
    </Form>
  );
}
