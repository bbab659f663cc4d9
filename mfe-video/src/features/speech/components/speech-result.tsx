import { mediaUrl } from '@kol/shared-sdk';
import { formatDurationMs } from '@kol/shared-sdk';
import { Alert, Button, Flex, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { SpeechOutput } from '../api/use-speech';

/** The spoken text: a player and its files to download. */
export function SpeechResult({ output }: { output: SpeechOutput }) {
  const mp3 = output.audioUrl.endsWith('.mp3');
  return (
    <Flex vertical gap={8}>
      <audio
        aria-label="合成结果"
        controls
        src={mediaUrl(output.audioUrl)}
        style={{ width: '100%' }}
      />
      <Typography.Text type="secondary">
        时长 {formatDurationMs(output.durationMs)}
        {output.engine ? ` · ${output.engine}` : ''}
      </Typography.Text>
      {output.note && <Alert type="info" showIcon title={output.note} />}
      <Flex gap={8} wrap>
        <Button
          icon={<DownloadOutlined />}
          href={mediaUrl(output.audioUrl)}
          download={mp3 ? '配音.mp3' : '配音.wav'}
        >
          {mp3 ? '下载 MP3' : '下载 WAV'}
        </Button>
        {output.wavUrl && (
          <Button icon={<DownloadOutlined />} href={mediaUrl(output.wavUrl)} download="配音.wav">
            下载 WAV
          </Button>
        )}
      </Flex>
    </Flex>
  );
}
