import { errorMessage } from '@kol/shared-sdk';
import { Button, Form, Input, message } from 'antd';
import type { UserInfo } from '@kol/shared-sdk';
import { useSaveUserInfo } from '../../../hooks/use-save-user-info';
import { nicknameRules, phoneRules } from '../validation';
import { AvatarUpload } from './avatar-upload';

interface ProfileValues {
  nickname: string;
  phone: string;
}

interface ProfileFormProps {
  user: UserInfo;
}

/** 昵称, 头像 and 手机号, saved with `update_user_info`; the username is shown, not edited. */
export function ProfileForm({ user }: ProfileFormProps) {
  const [form] = Form.useForm<ProfileValues>();
  const [messageApi, messageHolder] = message.useMessage();
  const { save, saving } = useSaveUserInfo();

  const onFinish = async (values: ProfileValues) => {
    try {
      await save({ nickname: values.nickname, phone: values.phone });
      void messageApi.success('个人资料已保存');
    } catch (error) {
      // The form keeps what the user typed; only the message is new.
      void messageApi.error(errorMessage(error));
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={{ nickname: user.nickname, phone: user.phone }}
      onFinish={onFinish}
      name="profile"
    >
      {messageHolder}
      <Form.Item label="头像">
        <AvatarUpload avatar={user.avatar} />
      </Form.Item>
      <Form.Item label="用户名">
        <Input value={user.username} disabled aria-label="用户名" />
      </Form.Item>
      <Form.Item label="昵称" name="nickname" rules={nicknameRules}>
        <Input placeholder="给自己起个名字" autoComplete="nickname" />
      </Form.Item>
      <Form.Item label="手机号" name="phone" rules={phoneRules}>
        <Input placeholder="11 位手机号" inputMode="numeric" autoComplete="tel" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        保存资料
      </Button>
    </Form>
  );
}
