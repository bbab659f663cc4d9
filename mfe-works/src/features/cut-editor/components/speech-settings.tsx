import { memo } from 'react';
import { Flex, InputNumber, Select, Typography } from 'antd';
import type { Voice } from '@kol/shared-sdk';
import { SPEED_MAX, SPEED_MIN } from '../constants';

interface SpeechSettingsProps {
  voices: Voice[];
  voicesLoading: boolean;
  /** 整体配音: the voice every segment without its own is spoken with. */
  voiceId: string | undefined;
  /** 整体语速; null: the server's 1×. */
  speed: number | null;
  onVoice: (voiceId: string) => void;
  onSpeed: (speed: number | null) => void;
}

/**
 * 整体配音 and 整体语速: what 全部配音, 为未配音片段配音 and 重新生成此片段 speak with, for every
 * segment that has no voice or speed of its own. Nothing is spoken or spent by choosing; the
 * next speech uses them (and the server keeps the voice as the cut video's).
 */
export const SpeechSettings = memo(function SpeechSettings({
  voices,
  voicesLoading,
  voiceId,
  speed,
  onVoice,
  onSpeed,
}: SpeechSettingsProps) {
  const known = voiceId === undefined || voices.some((voice) => voice.voiceId === voiceId);
  return (
    <Flex vertical gap={4}>
      <Flex gap={12} wrap align="end">
        <Flex vertical gap={4} style={{ flex: 1, minWidth: 180 }}>
          <Typography.Text strong>整体配音</Typography.Text>
          <Select
            aria-label="整体配音"
            value={voiceId}
            loading={voicesLoading}
            placeholder="选择配音音色"
            onChange={onVoice}
            options={[
              // A voice the list no longer offers stays shown by its id rather than blank.
              ...(known || voiceId === undefined ? [] : [{ value: voiceId, label: voiceId }]),
              ...voices.map((voice) => ({ value: voice.voiceId, label: voice.name })),
            ]}
          />
        </Flex>
        <Flex vertical gap={4}>
          <Typography.Text strong>整体语速</Typography.Text>
          <InputNumber
            aria-label="整体语速"
            min={SPEED_MIN}
            max={SPEED_MAX}
            step={0.1}
            precision={1}
            placeholder="1.0"
            value={speed}
            onChange={(value) => onSpeed(value ?? null)}
            style={{ width: 100 }}
          />
        </Flex>
      </Flex>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        没有单独设置配音或语速的片段按整体配音；已配音的片段要点「全部配音」才会换成新的声音
      </Typography.Text>
    </Flex>
  );
});
