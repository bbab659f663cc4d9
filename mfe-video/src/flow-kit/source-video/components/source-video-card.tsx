import { useRef, useState } from 'react';
import { Alert, App, Button, Card, Flex, Progress, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { isApiError, mediaUrl, errorMessage } from '@kol/shared-sdk';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import { probeDurationMs } from '../api/probe-duration';
import { uploadSource } from '../api/upload-source';
import {
  SOURCE_FILE_ACCEPT,
  SOURCE_FILE_LIMITS,
  sourceFileProblem,
  sourceLengthProblem,
  type SourceClip,
} from '../source-file';

interface SourceVideoCardProps {
  source: SourceClip | null;
  onUploaded: (source: SourceClip) => void;
  onBusyChange: (busy: boolean) => void;
}

function uploadFailure(reason: unknown): string {
  if (isApiError(reason)) return errorMessage(reason);
  return reason instanceof Error && reason.message ? reason.message : errorMessage(reason);
}

/**
 * 原视频: the limits stated, the clip chosen, checked (kind, size, length), sent with a progress
 * bar, then shown. A refused or failed upload says why and keeps the clip there was.
 */
export function SourceVideoCard({ source, onUploaded, onBusyChange }: SourceVideoCardProps) {
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const refuse = (text: string) => {
    setProblem(text);
    void message.error(text);
  };

  // One file at a time: a second pick while one is checked or sent waits its turn (ignored).
  const { run: choose, busy: choosing } = useSingleFlight(async (file: File | undefined) => {
    if (!file) return;
    const found = sourceFileProblem(file);
    if (found) return refuse(found);
    const durationMs = await probeDurationMs(file);
    const tooLong = durationMs === null ? null : sourceLengthProblem(file.name, durationMs);
    if (tooLong) return refuse(tooLong);
    setProblem(null);
    setPercent(0);
    onBusyChange(true);
    try {
      const uploaded = await uploadSource(file, setPercent);
      onUploaded({ url: uploaded.url, name: file.name, durationMs: uploaded.durationMs });
    } catch (reason) {
      refuse(`原视频上传失败：${uploadFailure(reason)}`);
    } finally {
      setPercent(null);
      onBusyChange(false);
    }
  });

  const uploading = percent !== null;
  return (
    <Card size="small" title="原视频">
      <Flex vertical gap={8}>
        <Typography.Text type="secondary">{SOURCE_FILE_LIMITS}</Typography.Text>
        {source && (
          <Flex vertical gap={4}>
            <video
              src={mediaUrl(source.url)}
              aria-label="原视频预览"
              controls
              muted
              preload="metadata"
              style={{ maxWidth: 360, maxHeight: 320, background: '#000', borderRadius: 6 }}
            />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {source.name}
              {source.durationMs ? `，${(source.durationMs / 1000).toFixed(1)} 秒` : ''}
            </Typography.Text>
          </Flex>
        )}
        <input
          ref={input}
          type="file"
          hidden
          accept={SOURCE_FILE_ACCEPT}
          aria-label="选择原视频"
          onChange={(event) => {
            const file = event.target.files?.[0];
            // Cleared so choosing the same file again (after fixing it) fires again.
            event.target.value = '';
            void choose(file);
          }}
        />
        <Button
          icon={<UploadOutlined aria-hidden />}
          loading={uploading || choosing}
          onClick={() => input.current?.click()}
          style={{ alignSelf: 'flex-start' }}
        >
          {source ? '更换原视频' : '上传原视频'}
        </Button>
        {uploading && (
          <Progress aria-label="原视频的上传进度" percent={percent} status="active" size="small" />
        )}
        {problem && <Alert type="error" showIcon title={problem} />}
      </Flex>
    </Card>
  );
}
