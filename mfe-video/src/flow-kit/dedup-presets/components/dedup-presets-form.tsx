import { Checkbox, Flex, InputNumber, Radio, Slider, Typography } from 'antd';
import type { DedupPresets } from '@kol/shared-sdk';

interface DedupPresetsFormProps {
  value: DedupPresets;
  onChange: (value: DedupPresets) => void;
}

/** Drops a preset set back to its neutral value, so the saved presets name only what is on. */
function set<K extends keyof DedupPresets>(
  presets: DedupPresets,
  key: K,
  value: DedupPresets[K] | undefined,
  neutral: DedupPresets[K],
): DedupPresets {
  const next = { ...presets };
  if (value === undefined || value === neutral || value === null) delete next[key];
  else next[key] = value;
  return next;
}

/**
 * 去重设置: the presets of the server's de-duplication (its ranges are the contract's, so a value
 * here is never refused there): mirror, crop and zoom, speed, colour shift, frame rate, trimmed
 * head and tail, a light overlay. Each control is named for tests and screen readers.
 */
export function DedupPresetsForm({ value, onChange }: DedupPresetsFormProps) {
  const row = (label: string, control: React.ReactNode, hint?: string) => (
    <Flex vertical gap={2}>
      <Typography.Text>{label}</Typography.Text>
      {control}
      {hint && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {hint}
        </Typography.Text>
      )}
    </Flex>
  );
  return (
    <Flex vertical gap={12}>
      <Flex gap={24} wrap>
        <Checkbox
          aria-label="镜像"
          checked={value.mirror ?? false}
          onChange={(event) => onChange(set(value, 'mirror', event.target.checked, false))}
        >
          镜像（左右翻转）
        </Checkbox>
        <Checkbox
          aria-label="轻微蒙层"
          checked={value.overlay ?? false}
          onChange={(event) => onChange(set(value, 'overlay', event.target.checked, false))}
        >
          轻微蒙层
        </Checkbox>
      </Flex>
      {row(
        `裁剪放大：每边 ${Math.round((value.cropZoom ?? 0) * 100)}%`,
        <Slider
          ariaLabelForHandle="裁剪放大"
          min={0}
          max={0.2}
          step={0.01}
          value={value.cropZoom ?? 0}
          tooltip={{ formatter: (v) => `${Math.round((v ?? 0) * 100)}%` }}
          onChange={(v) => onChange(set(value, 'cropZoom', v, 0))}
        />,
        '裁掉画面四边，再放大回原尺寸',
      )}
      {row(
        `变速：${(value.speed ?? 1).toFixed(2)}×`,
        <Slider
          ariaLabelForHandle="变速"
          min={0.8}
          max={1.25}
          step={0.05}
          value={value.speed ?? 1}
          onChange={(v) => onChange(set(value, 'speed', v, 1))}
        />,
        '只改变画面的播放速度，配音不受影响',
      )}
      {row(
        `调色：${value.colorShift ?? 0}°`,
        <Slider
          ariaLabelForHandle="调色"
          min={-30}
          max={30}
          step={1}
          value={value.colorShift ?? 0}
          onChange={(v) => onChange(set(value, 'colorShift', v, 0))}
        />,
      )}
      {row(
        '帧率',
        <Radio.Group
          aria-label="帧率"
          name="dedup-frame-rate"
          optionType="button"
          value={value.frameRate ?? 30}
          onChange={(event) =>
            onChange(set(value, 'frameRate', event.target.value as DedupPresets['frameRate'], 30))
          }
          options={[24, 25, 30, 60].map((fps) => ({ value: fps, label: `${fps} fps` }))}
        />,
        '24 / 25 fps 会按该节奏抽帧后再输出 30 fps',
      )}
      <Flex gap={24} wrap>
        {row(
          '去片头（秒）',
          <InputNumber
            aria-label="去片头"
            min={0}
            max={30}
            step={0.5}
            value={(value.trimHeadMs ?? 0) / 1000}
            onChange={(v) =>
              onChange(set(value, 'trimHeadMs', Math.round((Number(v) || 0) * 1000), 0))
            }
          />,
        )}
        {row(
          '去片尾（秒）',
          <InputNumber
            aria-label="去片尾"
            min={0}
            max={30}
            step={0.5}
            value={(value.trimTailMs ?? 0) / 1000}
            onChange={(v) =>
              onChange(set(value, 'trimTailMs', Math.round((Number(v) || 0) * 1000), 0))
            }
          />,
        )}
      </Flex>
    </Flex>
  );
}
