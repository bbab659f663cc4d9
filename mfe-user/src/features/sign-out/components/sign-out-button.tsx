import { useState } from 'react';
import { Button, message } from 'antd';
import { LogoutOutlined } from '@ant-design/icons';
import { signOut, errorMessage } from '@kol/shared-sdk';

/** 退出登录: the host's sign-out (which call, where to go next) through the SDK's `signOut()`. */
export function SignOutButton() {
  const [messageApi, messageHolder] = message.useMessage();
  const [signingOut, setSigningOut] = useState(false);

  const onClick = async () => {
    setSigningOut(true);
    try {
      await signOut();
    } catch (error) {
      void messageApi.error(errorMessage(error, '退出登录失败，请重试'));
    } finally {
      setSigningOut(false);
    }
  };

  return (
    <>
      {messageHolder}
      <Button danger icon={<LogoutOutlined aria-hidden />} loading={signingOut} onClick={onClick}>
        退出登录
      </Button>
    </>
  );
}
