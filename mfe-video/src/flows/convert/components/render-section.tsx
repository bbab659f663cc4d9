import { Button, Card, Typography } from 'antd';
import type { DedupPresets } from '@kol/shared-sdk';
import { DedupPresetsForm } from '../../../flow-kit/dedup-presets/components/dedup-presets-form';
import type { ConvertSettings } from '../convert-flow';

interface RenderSectionProps {
  settings: ConvertSettings;
  /** The user's saved presets, once read (使用我的去重设置 waits for them). */
  savedPresets: DedupPresets | null;
  onChange: (patch: Partial<ConvertSettings>) => void;
}

/** 去重与生成: the de-duplication presets the source's footage is processed with. */
export function RenderSection({ settings, savedPresets, onChange }: RenderSectionProps) {
  return (
    <Card
      size="small"
      title="去重设置"
      extra={
        <Button
          size="small"
          disabled={!savedPresets}
          onClick={() => savedPresets && onChange({ dedup: savedPresets })}
        >
          使用我的去重设置
        </Button>
      }
    >
      <DedupPresetsForm value={settings.dedup ?? {}} onChange={(dedup) => onChange({ dedup })} />
      <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0', fontSize: 12 }}>
        原画面去掉声音后按设置处理，循环或截取到新配音的长度；字幕按新文案逐句显示。
      </Typography.Paragraph>
    </Card>
  );
}
