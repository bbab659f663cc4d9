import { useState } from 'react';
import { Button, Flex, Select, Typography } from 'antd';
import { videoTypeLabel } from '@kol/shared-sdk';
import { useVoices } from '../../../hooks/use-voices';
import { useApplyVoice } from '../api/use-apply-voice';

/**
 * 应用到作品: one of the creator's works chosen from a list (read when the list first opens),
 * then 应用, which makes the voice and speed chosen above that work's narration. Disabled, with
 * the reason beside it, until a voice is chosen.
 */
export function ApplyVoice({
  language,
  voiceId,
  speed,
}: {
  language: 'zh' | 'en';
  voiceId: string | undefined;
  speed: number;
}) {
  const [opened, setOpened] = useState(false);
  const [workId, setWorkId] = useState<number | undefined>(undefined);
  const { voices } = useVoices(language);
  const { works, loading, error, apply, applying } = useApplyVoice(opened);
  const work = works.find((item) => item.workId === workId);
  const voice = voices.find((item) => item.voiceId === voiceId);

  return (
    <Flex vertical gap={4}>
      <Flex gap={8} wrap align="center">
        <Typography.Text>应用到作品</Typography.Text>
        <Select
          aria-label="要应用配音的作品"
          style={{ flex: 1, minWidth: 200 }}
          showSearch={{ optionFilterProp: 'label' }}
          placeholder="选择一个作品"
          value={workId}
          onChange={setWorkId}
          onOpenChange={(open) => open && setOpened(true)}
          onFocus={() => setOpened(true)}
          loading={loading}
          notFoundContent={loading ? '加载中…' : (error ?? '还没有作品')}
          options={works.map((item) => ({
            value: item.workId,
            label: `${item.title || '未命名作品'}（${videoTypeLabel(item.type)}）`,
          }))}
        />
        <Button
          // 「应用」 as written: antd's space between two characters would rename it 「应 用」.
          autoInsertSpace={false}
          disabled={!voice || !work}
          loading={applying}
          onClick={() =>
            voice && work && apply({ work, voiceId: voice.voiceId, voiceName: voice.name, speed })
          }
        >
          应用
        </Button>
      </Flex>
      <Typography.Text type="secondary">
        {voice ? '选中的作品下次生成视频时，使用上面的音色和语速' : '先选择配音音色'}
      </Typography.Text>
    </Flex>
  );
}
