import { Flex, Tag, Typography } from 'antd';
import { ANIME_NARRATOR } from '@kol/shared-sdk';

/** The script's speakers with how many lines each has, the narrator marked as such. */
export function SpeakerSummary({
  speakers,
}: {
  speakers: ReadonlyArray<{ name: string; lines: number }>;
}) {
  return (
    <Flex gap={6} wrap align="center" role="list" aria-label="角色台词统计">
      <Typography.Text type="secondary">角色：</Typography.Text>
      {speakers.length === 0 && <Typography.Text type="secondary">暂无</Typography.Text>}
      {speakers.map((speaker) => (
        <Tag
          key={speaker.name}
          role="listitem"
          color={speaker.name === ANIME_NARRATOR ? 'default' : 'magenta'}
        >
          {speaker.name} · {speaker.lines} 行
        </Tag>
      ))}
    </Flex>
  );
}
