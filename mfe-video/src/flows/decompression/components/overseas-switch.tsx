import { Flex, Switch, Tooltip, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useSearchParams } from '@kol/shared-sdk/router';
import { ProjectType, remainingGenerations, videoTypeLabel } from '@kol/shared-sdk';
import { usageLimitsAtom } from '@kol/shared-sdk/state';
import { decompressionStore, type DecompressionType } from '../decompression-flow';

/**
 * Domestic or overseas: the type lives in the address (`?videoType=6`), which the host's quota
 * rule reads. Switching carries the text over when the other variant has none yet.
 */
export function OverseasSwitch({ type, text }: { type: DecompressionType; text: string }) {
  const [params, setParams] = useSearchParams();
  const limits = useAtomValue(usageLimitsAtom);
  const overseas = type === ProjectType.decompressionOverseas;
  const other: DecompressionType = overseas
    ? ProjectType.decompression
    : ProjectType.decompressionOverseas;
  const otherUsedUp = limits !== null && remainingGenerations(limits, other) <= 0;
  const switchTo = (on: boolean) => {
    const target = decompressionStore(on);
    const current = target.draft();
    if (!current.text.trim() && text.trim()) target.setDraft({ ...current, text });
    const next = new URLSearchParams(params);
    next.set(
      'videoType',
      String(on ? ProjectType.decompressionOverseas : ProjectType.decompression),
    );
    // Another variant is another work.
    next.delete('workId');
    setParams(next, { replace: true });
  };
  return (
    <Tooltip title={otherUsedUp ? `${videoTypeLabel(other)}的生成次数已用完` : undefined}>
      <Flex align="center" gap={8}>
        <Switch aria-label="海外版" checked={overseas} disabled={otherUsedUp} onChange={switchTo} />
        <Typography.Text>海外版（英文配音与字幕）</Typography.Text>
      </Flex>
    </Tooltip>
  );
}
