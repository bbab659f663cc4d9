import { Button, Card, Flex, Input, Select, Typography } from 'antd';
import { mediaUrl, type CutSegment, type Material } from '@kol/shared-sdk';

interface SegmentCardProps {
  segment: CutSegment;
  /** The text as on the server: a different one here is not spoken yet. */
  savedText: string;
  materials: Material[];
  busy: boolean;
  onChange: (patch: Partial<CutSegment>) => void;
  onRespeak: () => void;
}

/**
 * One segment: its text, its speech (played here), its background and 重新配音, which saves
 * the text first so the new speech says what is written.
 */
export function SegmentCard({
  segment,
  savedText,
  materials,
  busy,
  onChange,
  onRespeak,
}: SegmentCardProps) {
  const n = segment.index + 1;
  const changed = segment.text !== savedText;
  const seconds = (segment.audioDurationMs ?? 0) / 1000;
  return (
    <Card size="small" title={`片段 ${n}`} role="group" aria-label={`片段 ${n}`}>
      <Flex vertical gap={8}>
        <Input.TextArea
          aria-label={`第 ${n} 个片段的文案`}
          autoSize={{ minRows: 1, maxRows: 4 }}
          maxLength={2000}
          value={segment.text}
          onChange={(event) => onChange({ text: event.target.value })}
        />
        <Flex wrap align="center" gap={12}>
          {segment.audioUrl && !changed ? (
            <>
              <audio
                aria-label={`第 ${n} 个片段的配音`}
                controls
                preload="none"
                src={mediaUrl(segment.audioUrl)}
                style={{ height: 32 }}
              />
              <Typography.Text type="secondary">配音 {seconds.toFixed(1)} 秒</Typography.Text>
            </>
          ) : (
            <Typography.Text type="warning">
              {changed ? '文案已修改，需要重新配音' : '还没有配音'}
            </Typography.Text>
          )}
          {segment.materialId !== null && (
            <Select
              aria-label={`第 ${n} 个片段的背景`}
              style={{ minWidth: 160 }}
              value={segment.materialId}
              onChange={(materialId: number) => {
                const material = materials.find((m) => m.materialId === materialId);
                // The whole loop: the server refuses a window past the material's end.
                onChange({ materialId, startMs: 0, endMs: material?.durationMs || 8000 });
              }}
              options={materials.map((m) => ({ value: m.materialId, label: m.name }))}
            />
          )}
          <Button loading={busy} onClick={onRespeak}>
            重新配音第 {n} 个片段
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
