import { useState } from 'react';
import { Avatar, Button, Flex, Typography, Upload, message, type UploadProps } from 'antd';
import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { uploadImage, errorMessage } from '@kol/shared-sdk';
import { useSaveUserInfo } from '../../../hooks/use-save-user-info';
import { AVATAR_MIME_TYPES, avatarFileProblem } from '../avatar-file';

interface AvatarUploadProps {
  avatar: string;
}

/** The avatar and its upload: the image goes to `upload_image`, its URL is saved as `avatar`. */
export function AvatarUpload({ avatar }: AvatarUploadProps) {
  const [messageApi, messageHolder] = message.useMessage();
  const { save } = useSaveUserInfo();
  const [uploading, setUploading] = useState(false);

  // Refused files never reach the server: checked here, before antd would send anything.
  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const problem = avatarFileProblem(file);
    if (problem) {
      void messageApi.error(problem);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = async ({ file, onSuccess, onError }) => {
    if (!(file instanceof Blob)) return;
    setUploading(true);
    try {
      const { url } = await uploadImage(file, 'name' in file ? file.name : 'avatar');
      await save({ avatar: url });
      onSuccess?.(url);
      void messageApi.success('头像已更新');
    } catch (error) {
      onError?.(error as Error);
      void messageApi.error(errorMessage(error));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Flex align="center" gap={16} wrap>
      {messageHolder}
      <Avatar size={72} src={avatar || undefined} icon={<UserOutlined aria-hidden />} alt="头像" />
      <Upload
        accept={AVATAR_MIME_TYPES.join(',')}
        showUploadList={false}
        maxCount={1}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
      >
        <Button icon={<UploadOutlined aria-hidden />} loading={uploading}>
          更换头像
        </Button>
      </Upload>
      <Typography.Text type="secondary">JPEG、PNG 或 WebP，不超过 5 MB</Typography.Text>
    </Flex>
  );
}
