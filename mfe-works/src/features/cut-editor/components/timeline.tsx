import { useCallback, useState, type DragEvent } from 'react';
import { Flex } from 'antd';
import type { Material } from '@kol/shared-sdk';
import type { LocalSegment } from '../model';
import { SegmentCard } from './segment-card';

interface TimelineProps {
  segments: LocalSegment[];
  selectedKey: string | null;
  /** Keys of the segments being spoken. */
  speakingKeys: readonly string[];
  drawingKeys: readonly string[];
  voiceNameOf: (segment: LocalSegment) => string;
  materials: ReadonlyMap<number, Material>;
  onSelect: (key: string) => void;
  onMove: (from: number, to: number) => void;
}

/** The segments in order: click one to edit it, drag one (or 上移 / 下移) to move it. */
export function Timeline({
  segments,
  selectedKey,
  speakingKeys,
  drawingKeys,
  voiceNameOf,
  materials,
  onSelect,
  onMove,
}: TimelineProps) {
  const [drag, setDrag] = useState<{ from: number; over: number | null } | null>(null);

  const onDragStart = useCallback((position: number, event: DragEvent) => {
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', String(position));
    setDrag({ from: position, over: null });
  }, []);
  const onDragOver = useCallback((position: number, event: DragEvent) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setDrag((current) =>
      current && current.over !== position ? { ...current, over: position } : current,
    );
  }, []);
  const onDragEnd = useCallback(() => setDrag(null), []);
  const onDrop = useCallback(
    (position: number, event: DragEvent) => {
      event.preventDefault();
      // Only a segment of this timeline is moved (not, say, a file dragged in).
      const data = event.dataTransfer.getData('text/plain');
      const from = drag?.from ?? (data === '' ? Number.NaN : Number(data));
      if (Number.isInteger(from) && from !== position) onMove(from, position);
      setDrag(null);
    },
    [drag, onMove],
  );

  return (
    <Flex vertical gap={8} role="list" aria-label="时间线">
      {segments.map((segment, position) => (
        <div role="listitem" key={segment.key}>
          <SegmentCard
            segment={segment}
            position={position}
            total={segments.length}
            voiceName={voiceNameOf(segment)}
            material={segment.materialId === null ? undefined : materials.get(segment.materialId)}
            selected={segment.key === selectedKey}
            speaking={speakingKeys.includes(segment.key)}
            drawing={drawingKeys.includes(segment.key)}
            dragOver={drag !== null && drag.over === position && drag.from !== position}
            onSelect={onSelect}
            onMove={onMove}
            onDragStart={onDragStart}
            onDragOver={onDragOver}
            onDragEnd={onDragEnd}
            onDrop={onDrop}
          />
        </div>
      ))}
    </Flex>
  );
}
