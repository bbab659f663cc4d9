import { Card, Flex, Input } from 'antd';
import { SourceVideoCard } from '../../../flow-kit/source-video/components/source-video-card';
import type { ConvertDraftUpdate } from '../convert-flow';
import type { ConvertDraft } from '../draft';

interface SourceSectionProps {
  draft: ConvertDraft;
  update: ConvertDraftUpdate;
  onUploaded: (source: NonNullable<ConvertDraft['source']>) => void;
  onBusyChange: (busy: boolean) => void;
}

/** 上传原视频: the source clip and the work's title. */
export function SourceSection({ draft, update, onUploaded, onBusyChange }: SourceSectionProps) {
  return (
    <Flex vertical gap={16}>
      <SourceVideoCard source={draft.source} onBusyChange={onBusyChange} onUploaded={onUploaded} />
      <Card size="small" title="作品">
        <Input
          aria-label="作品标题"
          placeholder="不填则取视频文件名"
          maxLength={100}
          showCount
          value={draft.title}
          onChange={(event) => update((current) => ({ ...current, title: event.target.value }))}
        />
      </Card>
    </Flex>
  );
}
