import { Alert, Flex, Input, List, Typography } from 'antd';
import type { SeriesPlan } from '@kol/shared-sdk';
import { formatEta } from '../../../lib/stages';

interface PlanPreviewProps {
  plan: SeriesPlan;
  titles: string[];
  onTitles: (titles: string[]) => void;
}

/**
 * The series before anything is made or spent: each episode with its editable title, the counts
 * it needs and has, and how long the making is expected to take.
 */
export function PlanPreview({ plan, titles, onTitles }: PlanPreviewProps) {
  const short = plan.countsNeeded > plan.countsLeft;
  return (
    <Flex vertical gap={12}>
      <Flex gap={24} wrap>
        <Typography.Text>{`共 ${plan.episodes.length} 集`}</Typography.Text>
        <Typography.Text type={short ? 'danger' : undefined}>
          {`需要 ${plan.countsNeeded} 次生成次数，剩余 ${plan.countsLeft} 次`}
        </Typography.Text>
        <Typography.Text>
          预计总用时 {formatEta(plan.estimatedSeconds) || '不到 1 秒'}
        </Typography.Text>
      </Flex>
      {short && (
        <Alert
          type="warning"
          showIcon
          title={
            plan.countsLeft > 0
              ? `次数不够全部生成：可以先创建，开始时只生成前 ${plan.countsLeft} 集`
              : '生成次数已用完：可以先创建系列、确认角色，充值后再开始'
          }
        />
      )}
      <List
        aria-label="分集"
        dataSource={plan.episodes}
        renderItem={(episode) => (
          <List.Item>
            <Flex vertical gap={4} style={{ width: '100%' }}>
              <Flex gap={8} align="center">
                <Typography.Text style={{ flex: 'none' }}>{`第${episode.index}集`}</Typography.Text>
                <Input
                  aria-label={`第${episode.index}集标题`}
                  maxLength={60}
                  value={titles[episode.index - 1] ?? episode.title}
                  onChange={(event) => {
                    const next = plan.episodes.map((e, i) => titles[i] ?? e.title);
                    next[episode.index - 1] = event.target.value;
                    onTitles(next);
                  }}
                />
              </Flex>
              {episode.flagged && (
                <Typography.Text type="warning">{episode.flagged}</Typography.Text>
              )}
              <Typography.Text type="secondary">
                {`${episode.sourceTitle} · ${episode.chars} 字 · 预计时长 ${formatEta(episode.estimatedSeconds) || '—'}`}
              </Typography.Text>
            </Flex>
          </List.Item>
        )}
      />
    </Flex>
  );
}
