import { Card, Flex, Radio, Slider, Typography } from 'antd';
import type { VideoSettings } from '@kol/shared-sdk';
import { VoicePicker } from '../../voices/components/voice-picker';
import { CaptionStylePicker } from './caption-style-picker';
import { MusicPicker } from './music-picker';

/** What this section sets, of a work's settings. */
export type LookAndSound = Pick<
  VideoSettings,
  'aspect' | 'voiceId' | 'speed' | 'musicId' | 'captionStyle'
>;

interface LookAndSoundSectionProps<S extends LookAndSound> {
  settings: S;
  /** English voices for an overseas video. */
  overseas: boolean;
  /** What 试听 speaks: the narration as it stands. */
  sampleText: string;
  onChange: (patch: Partial<S>) => void;
  /** Names the radio group (two sections on a page must not share one). */
  name?: string;
}

/** 画面比例, 配音 with its speed, 背景音乐 and 字幕样式: the settings every narrated video has. */
export function LookAndSoundSection<S extends LookAndSound>({
  settings,
  overseas,
  sampleText,
  onChange,
  name = 'video-aspect',
}: LookAndSoundSectionProps<S>) {
  const speed = settings.speed ?? 1;
  return (
    <Flex vertical gap={16}>
      <Card title="画面比例" size="small">
        <Radio.Group
          aria-label="画面比例"
          name={name}
          optionType="button"
          value={settings.aspect}
          onChange={(event) =>
            onChange({ aspect: event.target.value as S['aspect'] } as Partial<S>)
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
            onChange={(voiceId) => onChange({ voiceId } as Partial<S>)}
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
              onChange={(value: number) => onChange({ speed: value } as Partial<S>)}
            />
          </Flex>
        </Flex>
      </Card>
      <Card title="背景音乐" size="small">
        <MusicPicker
          value={settings.musicId}
          onChange={(musicId) => onChange({ musicId } as Partial<S>)}
        />
      </Card>
      <Card title="字幕样式" size="small">
        <CaptionStylePicker
          value={settings.captionStyle ?? 'classic'}
          onChange={(captionStyle) => onChange({ captionStyle } as Partial<S>)}
        />
      </Card>
    </Flex>
  );
}
