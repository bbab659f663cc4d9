import { formatDurationMs, mediaUrl, speechEngineWords } from '@kol/shared-sdk';
import { Alert, Button, Flex, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useVoices } from '../../../hooks/use-voices';
import type { SpeechOutput } from '../api/use-speech';

/** The files a result offers, short speech and long alike. */
const DOWNLOADS: { format: string; url: (output: SpeechOutput) => string | null | undefined }[] = [
  { format: 'MP3', url: (output) => output.mp3Url },
  { format: 'WAV', url: (output) => output.wavUrl },
];

/**
 * The spoken text: a player and its files to download, its length, the voice by its plain name
 * (as the pickers list it) and once, in plain words, the engine that spoke (离线合成).
 */
export function SpeechResult({ output }: { output: SpeechOutput }) {
  const { voices } = useVoices(null);
  const voice = voices.find((v) => v.voiceId === output.voiceId)?.name;
  const engine = speechEngineWords(output.engine);
  return (
    <Flex vertical gap={8}>
      <audio
        aria-label="合成结果"
        controls
        src={mediaUrl(output.audioUrl)}
        style={{ width: '100%' }}
      />
      <Typography.Text type="secondary" aria-label="合成信息">
        {['时长 ' + formatDurationMs(output.durationMs), voice, engine].filter(Boolean).join(' · ')}
      </Typography.Text>
      {output.note && <Alert type="info" showIcon title={output.note} />}
      <Flex gap={8} wrap>
        {DOWNLOADS.map(({ format, url }) => {
          const href = url(output);
          return href ? (
            <Button
              key={format}
              icon={<DownloadOutlined aria-hidden />}
              href={mediaUrl(href)}
              download={`配音.${format.toLowerCase()}`}
            >
              下载 {format}
            </Button>
          ) : null;
        })}
      </Flex>
    </Flex>
  );
}
