import type { CSSProperties } from 'react';
import { Flex, Radio, Typography } from 'antd';
import type { CaptionStyle } from '@kol/shared-sdk';

const OUTLINE = '-1px -1px 0 #000, 1px -1px 0 #000, -1px 1px 0 #000, 1px 1px 0 #000';

/** The four styles the server burns, drawn small the way the video shows them. */
const CAPTION_STYLE_OPTIONS: { value: CaptionStyle; label: string; sample: CSSProperties }[] = [
  { value: 'classic', label: '经典白字', sample: { color: '#fff', textShadow: OUTLINE } },
  { value: 'yellow', label: '黄色字幕', sample: { color: '#ffd400', textShadow: OUTLINE } },
  {
    value: 'box',
    label: '底框字幕',
    sample: { color: '#fff', background: 'rgba(0,0,0,0.7)', padding: '0 4px', borderRadius: 2 },
  },
  { value: 'none', label: '不显示字幕', sample: { color: '#888', textDecoration: 'line-through' } },
];

interface CaptionStylePickerProps {
  value: CaptionStyle;
  onChange: (style: CaptionStyle) => void;
}

/** 字幕样式: classic, yellow, box or none (the SRT is written beside the video in every case). */
export function CaptionStylePicker({ value, onChange }: CaptionStylePickerProps) {
  return (
    <Radio.Group
      aria-label="字幕样式"
      value={value}
      onChange={(event) => onChange(event.target.value as CaptionStyle)}
    >
      <Flex gap={8} wrap>
        {CAPTION_STYLE_OPTIONS.map((option) => (
          <Flex key={option.value} vertical align="center" gap={4}>
            <div
              aria-hidden
              style={{
                width: 96,
                height: 54,
                borderRadius: 6,
                background: 'linear-gradient(160deg, #3a4a6b, #8a5a7a)',
                display: 'flex',
                alignItems: 'flex-end',
                justifyContent: 'center',
                paddingBottom: 6,
                fontSize: 12,
              }}
            >
              <span style={option.sample}>字幕示例</span>
            </div>
            <Radio value={option.value}>{option.label}</Radio>
          </Flex>
        ))}
      </Flex>
      <Typography.Paragraph type="secondary" style={{ margin: '6px 0 0', fontSize: 12 }}>
        无论选哪种样式，都会同时生成 SRT 字幕文件。
      </Typography.Paragraph>
    </Radio.Group>
  );
}
