import { Alert, Card, Flex, List, Progress, Tag, Typography } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import { formatTime, videoTypeLabel } from '@kol/shared-sdk';
import { useSeriesList } from '../api/use-series';
import { SERIES_STATE } from './series-state';

/** 我的系列: every series of the user, newest first, each a link to its page. */
export function SeriesList() {
  const { items, error } = useSeriesList();
  if (error) return <Alert type="error" showIcon title={`我的系列加载失败：${error}`} />;
  if (items.length === 0) return null;
  return (
    <Card title="我的系列" size="small">
      <List
        dataSource={items}
        renderItem={(series) => {
          const state = SERIES_STATE[series.state];
          const ended = series.succeeded + series.failed;
          return (
            <List.Item>
              <Flex gap={12} align="center" wrap style={{ width: '100%' }}>
                <Link to={`/video/series/${series.seriesId}`}>{series.title}</Link>
                <Tag color={state.color}>{state.label}</Tag>
                <Typography.Text type="secondary">
                  {videoTypeLabel(series.type)} · {series.succeeded}/{series.episodes} 集完成 ·{' '}
                  {formatTime(series.createdAt)}
                </Typography.Text>
                <Progress
                  aria-label={`${series.title} 进度`}
                  style={{ width: 160, margin: 0 }}
                  size="small"
                  percent={series.episodes ? Math.round((ended / series.episodes) * 100) : 0}
                  showInfo={false}
                />
              </Flex>
            </List.Item>
          );
        }}
      />
    </Card>
  );
}
