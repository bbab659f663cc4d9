import { useRef, useState } from 'react';
import { Alert, App, Button, Card, Flex, Progress, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { isApiError, mediaUrl, errorMessage } from '@kol/shared-sdk';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import { uploadSceneFile } from '../api/upload-scene-file';
import type { OperaDraftScene } from '../draft';
import { lineCaption } from '../opera-flow';
import { SCENE_FILE_ACCEPT, sceneFileKind, sceneFileProblem } from '../scene-file';

interface SceneMediaCardProps {
  index: number;
  scene: OperaDraftScene;
  aspect: '9:16' | '16:9';
  onUploaded: (media: { url: string; kind: 'image' | 'video'; name: string }) => void;
  onBusyChange: (busy: boolean) => void;
}

/** What went wrong with an upload, in Chinese: the server's message, or the browser's check. */
function uploadFailure(reason: unknown): string {
  if (isApiError(reason)) return errorMessage(reason);
  return reason instanceof Error && reason.message ? reason.message : errorMessage(reason);
}

/**
 * One scene: its lines as they will be captioned, and its clip or photo: chosen, checked, sent
 * with a progress bar, then shown. A refused or failed upload says why and keeps what the scene
 * had before.
 */
export function SceneMediaCard({
  index,
  scene,
  aspect,
  onUploaded,
  onBusyChange,
}: SceneMediaCardProps) {
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const n = index + 1;

  // One file at a time: a second pick while one is checked or sent waits its turn (ignored).
  const { run: choose, busy: choosing } = useSingleFlight(async (file: File | undefined) => {
    if (!file) return;
    const found = sceneFileProblem(file);
    const kind = sceneFileKind(file);
    setProblem(found);
    if (found || !kind) {
      void message.error(found ?? '');
      return;
    }
    setPercent(0);
    onBusyChange(true);
    try {
      const uploaded = await uploadSceneFile(file, kind, setPercent);
      onUploaded({ ...uploaded, name: file.name });
    } catch (reason) {
      const text = `第 ${n} 个场景上传失败：${uploadFailure(reason)}`;
      setProblem(text);
      void message.error(text);
    } finally {
      setPercent(null);
      onBusyChange(false);
    }
  });

  const uploading = percent !== null;
  const previewStyle = {
    width: aspect === '9:16' ? 135 : 240,
    height: 240 * (aspect === '9:16' ? 1 : 9 / 16),
    objectFit: 'cover' as const,
    borderRadius: 6,
    background: '#000',
  };

  return (
    <Card size="small" role="group" aria-label={`场景 ${n}`} title={`场景 ${n}`}>
      <Flex gap={16} wrap>
        <Flex vertical gap={8} style={{ width: previewStyle.width }}>
          {scene.mediaUrl ? (
            scene.mediaKind === 'image' ? (
              <img src={mediaUrl(scene.mediaUrl)} alt={`场景 ${n} 的照片`} style={previewStyle} />
            ) : (
              <video
                src={mediaUrl(scene.mediaUrl)}
                aria-label={`场景 ${n} 的视频`}
                controls
                muted
                preload="metadata"
                style={previewStyle}
              />
            )
          ) : (
            <Flex
              align="center"
              justify="center"
              style={{ ...previewStyle, background: 'rgba(0,0,0,0.06)' }}
            >
              <Typography.Text type="secondary">还没有素材</Typography.Text>
            </Flex>
          )}
          {scene.mediaName && (
            <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
              {scene.mediaName}
            </Typography.Text>
          )}
        </Flex>
        <Flex vertical gap={8} style={{ flex: 1, minWidth: 220 }}>
          <Flex vertical gap={2} aria-label={`场景 ${n} 的台词`}>
            {scene.lines.map((line) => (
              <Typography.Text key={line.key}>{lineCaption(line)}</Typography.Text>
            ))}
          </Flex>
          <input
            ref={input}
            type="file"
            hidden
            accept={SCENE_FILE_ACCEPT}
            aria-label={`选择第 ${n} 个场景的视频或照片`}
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
            {scene.mediaUrl ? `更换第 ${n} 个场景的素材` : `上传第 ${n} 个场景的视频或照片`}
          </Button>
          {uploading && (
            <Progress
              aria-label={`第 ${n} 个场景的上传进度`}
              percent={percent}
              status="active"
              size="small"
            />
          )}
          {problem && <Alert type="error" showIcon title={problem} />}
        </Flex>
      </Flex>
    </Card>
  );
}
