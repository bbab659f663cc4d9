import { Card, Flex, Radio, Slider, Typography } from 'antd';
import { CaptionStylePicker } from '../../../flow-kit/video-settings/components/caption-style-picker';
import { MusicPicker } from '../../../flow-kit/video-settings/components/music-picker';
import { VoicePicker } from '../../../flow-kit/voices/components/voice-picker';
import type { DecompressionSettings } from '../decompression-flow';

interface LookAndSoundSectionProps {
  settings: DecompressionSettings;
  /** English voices for the overseas video. */
  overseas: boolean;
  /** What 试听 speaks: the narration as it stands. */
  sampleText: string;
  onChange: (patch: Partial<DecompressionSettings>) => void;
}

/** 画面比例, 配音 with its speed, 背景音乐 and 字幕样式. */
export function LookAndSoundSection({
  settings,
  overseas,
  sampleText,
  onChange,
}: LookAndSoundSectionProps) {
  const speed = settings.speed ?? 1;
  return (
    <Flex vertical gap={16}>
      <Card title="画面比例" size="small">
        <Radio.Group
          aria-label="画面比例"
          name="decompression-aspect"
          optionType="button"
          value={settings.aspect}
          onChange={(event) =>
            onChange({ aspect: event.target.value as DecompressionSettings['aspect'] })
          }
          options={[
            { value: '9:16', label: '竖屏 9:16' },
            { value: '16:9', label: '横屏 16:9' },
          ]}
        />
      </Card>
      <Card title="配音" size="small">
        <Flex vertical gap={8}>
          <VoicePicker
            language={overseas ? 'en' : 'zh'}
            value={settings.voiceId}
            onChange={(voiceId) => onChange({ voiceId })}
            speed={speed}
            sampleText={sampleText}
          />
          <Flex align="center" gap={12}>
            <Typography.Text>语速 {speed.toFixed(1)}×</Typography.Text>
            <Slider
              ariaLabelForHandle="语速"
              style={{ flex: 1 }}
              min={0.5}
              max={2}
              step={0.1}
              value={speed}
              onChange={(value: number) => onChange({ speed: value })}
            />
          </Flex>
        </Flex>
      </Card>
      <Card title="背景音乐" size="small">
        <MusicPicker value={settings.musicId} onChange={(musicId) => onChange({ musicId })} />
      </Card>
      <Card title="字幕样式" size="small">
        <CaptionStylePicker
          value={settings.captionStyle ?? 'classic'}
          onChange={(captionStyle) => onChange({ captionStyle })}
        />
      </Card>
    </Flex>
  );
}
