import { Button, Card, Flex, Typography } from 'antd';
import { Link } from '@kol/shared-sdk/router';

/** 整季生成: a book's chapters made into a season of videos, unattended. */
export function SeriesEntry() {
  return (
    <Card size="small">
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Flex vertical gap={2}>
          <Typography.Text strong>整季生成</Typography.Text>
          <Typography.Text type="secondary">
            选一本书的连续章节，一次做成一整季视频：同一套角色，逐集自动生成，完成后打包下载。
          </Typography.Text>
        </Flex>
        <Link to="/video/series">
          <Button type="primary">整季生成</Button>
        </Link>
      </Flex>
    </Card>
  );
}
