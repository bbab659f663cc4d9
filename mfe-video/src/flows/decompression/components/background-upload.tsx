import { Alert, Button, Flex, Progress, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import type { BackgroundUpload as Upload } from '../api/use-background-upload';
import { BACKGROUND_FILE_ACCEPT, BACKGROUND_FILE_LIMITS } from '../background-file';

/** 上传背景视频: the file chooser with the limits stated first, the progress and any refusal. */
export function BackgroundUpload({ upload }: { upload: Upload }) {
  const { input, percent, problem } = upload;
  return (
    <Flex vertical gap={6}>
      <input
        ref={input}
        type="file"
        hidden
        aria-label="选择背景视频"
        accept={BACKGROUND_FILE_ACCEPT}
        onChange={(event) => void upload.choose(event.target.files?.[0])}
      />
      <Button
        icon={<UploadOutlined aria-hidden />}
        loading={percent !== null || upload.choosing}
        onClick={() => input.current?.click()}
      >
        上传背景视频
      </Button>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {BACKGROUND_FILE_LIMITS}
      </Typography.Text>
      {percent !== null && (
        <Progress aria-label="背景视频的上传进度" percent={Math.round(percent)} size="small" />
      )}
      {problem && <Alert type="error" showIcon title={problem} />}
    </Flex>
  );
}
