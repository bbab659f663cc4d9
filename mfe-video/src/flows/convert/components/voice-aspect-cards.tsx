import { Card, Flex, Radio } from 'antd';
import { VoicePicker } from '../../../flow-kit/voices/components/voice-picker';
import type { ConvertSettings } from '../convert-flow';

interface VoiceAspectCardsProps {
  settings: ConvertSettings;
  /** What 试听 speaks: the script as it stands. */
  sampleText: string;
  onChange: (patch: Partial<ConvertSettings>) => void;
}

/** 配音 and 画面: the new narration's voice and the video's aspect. */
export function VoiceAspectCards({ settings, sampleText, onChange }: VoiceAspectCardsProps) {
  return (
    <Flex vertical gap={16}>
      <Card size="small" title="配音">
        <VoicePicker
          language="zh"
          value={settings.voiceId}
          onChange={(voiceId) => onChange({ voiceId })}
          speed={settings.speed ?? 1}
          sampleText={sampleText}
        />
      </Card>
      <Card size="small" title="画面">
        <Radio.Group
          aria-label="画面比例"
          name="convert-aspect"
          optionType="button"
          value={settings.aspect}
          onChange={(event) =>
            onChange({ aspect: event.target.value as ConvertSettings['aspect'] })
          }
          options={[
            { value: '9:16', label: '竖屏 9:16' },
            { value: '16:9', label: '横屏 16:9' },
          ]}
        />
      </Card>
    </Flex>
  );
}
