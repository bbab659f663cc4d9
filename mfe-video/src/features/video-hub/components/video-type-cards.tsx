import { Alert, Button, Card, Col, Empty, Flex, Row, Tag, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import {
  QUOTA_FIELDS,
  QUOTA_TYPE_LABELS,
  QUOTA_TYPE_OF_PROJECT,
  canUseProjectType,
  remainingGenerations,
  remainingMerges,
  type UsageLimits,
} from '@kol/shared-sdk';
import { currentUserAtom, useUsageLimits } from '@kol/shared-sdk/state';
import { usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { VIDEO_TYPES, type VideoTypeEntry } from '@kol/shared-sdk';

function rewardOf(limits: UsageLimits, entry: VideoTypeEntry): number {
  const field = QUOTA_FIELDS[QUOTA_TYPE_OF_PROJECT[entry.type]].reward;
  return field ? limits[field] : 0;
}

/**
 * What a card says when its counts are shared (AI漫剧 spends the comic clip's counts): on the
 * borrowing type, whose counts they are; on the type owning them, which shown types spend them
 * too. Null when the counts are the type's alone.
 */
function sharedCountNote(entry: VideoTypeEntry, shown: readonly VideoTypeEntry[]): string | null {
  const quota = QUOTA_TYPE_OF_PROJECT[entry.type];
  const owner = QUOTA_TYPE_LABELS[quota];
  if (owner !== entry.label) return `与${owner}共用次数`;
  const borrowers = shown
    .filter((other) => other.type !== entry.type && QUOTA_TYPE_OF_PROJECT[other.type] === quota)
    .map((other) => other.label);
  return borrowers.length > 0 ? `${borrowers.join('、')}也使用这些次数` : null;
}

function TypeCard({
  entry,
  limits,
  sharedNote,
}: {
  entry: VideoTypeEntry;
  limits: UsageLimits | null;
  /** The counts are shared with another type: `sharedCountNote`. */
  sharedNote: string | null;
}) {
  const navigate = usePageNavigate();
  const remaining = limits ? remainingGenerations(limits, entry.type) : null;
  const merges = limits ? remainingMerges(limits, entry.type) : null;
  const used = remaining !== null && remaining <= 0;
  return (
    <Card
      title={entry.label}
      // The card fills its grid cell and the body takes what the title leaves (a body of height
      // 100% would overflow the card by the title's height, over the next row).
      style={{ height: '100%', display: 'flex', flexDirection: 'column' }}
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 8, flex: 1 } }}
      aria-label={entry.label}
      role="group"
    >
      <Typography.Paragraph type="secondary" style={{ margin: 0, flex: 1 }}>
        {entry.description}
      </Typography.Paragraph>
      {limits && remaining !== null ? (
        <Flex gap={4} wrap>
          <Tag color={used ? 'default' : 'magenta'}>
            剩余生成 {remaining} 次
            {rewardOf(limits, entry) > 0 ? `（含奖励 ${rewardOf(limits, entry)} 次）` : ''}
          </Tag>
          <Tag>{merges === null ? '无合成步骤' : `剩余合成 ${merges} 次`}</Tag>
          {sharedNote && <Tag data-testid="shared-count">{sharedNote}</Tag>}
        </Flex>
      ) : (
        <Typography.Text type="secondary">剩余次数未知</Typography.Text>
      )}
      {used && (
        <Typography.Text type="warning">
          {entry.label}的生成次数已用完，暂时不能制作
        </Typography.Text>
      )}
      <Button
        type="primary"
        block
        disabled={used}
        aria-label={`开始制作${entry.label}`}
        onClick={() => navigate(entry.startPath)}
      >
        开始制作
      </Button>
    </Card>
  );
}

/**
 * A card for each video type the user's template ids allow, with what is left of its counts
 * (`get_user_limit_info`): generate plus reward, and merge. A type with nothing left is shown
 * disabled with the reason, not hidden.
 */
export function VideoTypeCards() {
  const user = useAtomValue(currentUserAtom);
  const phone = usePhoneLayout();
  const { limits, error, reload } = useUsageLimits();
  const allowed = VIDEO_TYPES.filter((entry) => canUseProjectType(user, entry.type));

  if (allowed.length === 0) {
    return <Empty description="你的账号还没有开通任何视频类型，请联系我们开通" />;
  }
  return (
    <Flex vertical gap={12}>
      {error && (
        <Alert
          type="error"
          showIcon
          title={`剩余次数加载失败：${error}`}
          action={
            <Button size="small" onClick={() => void reload()}>
              重新加载
            </Button>
          }
        />
      )}
      <Row gutter={[16, 16]}>
        {allowed.map((entry) => (
          <Col key={entry.type} xs={24} sm={phone ? 24 : 12} lg={phone ? 24 : 8}>
            <TypeCard entry={entry} limits={limits} sharedNote={sharedCountNote(entry, allowed)} />
          </Col>
        ))}
      </Row>
    </Flex>
  );
}
