import { mediaUrl } from '@kol/shared-sdk';
import { Button, Flex, Image, Tag, Typography } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import type { WorkDetail } from '@kol/shared-sdk';
import { flowQuery, type ComicType } from '../../../lib/comic-flow';

/**
 * The video's shots as pictures, the ones that fell back to a local frame marked, with the way
 * to redraw them (the next video keeps a redrawn picture while its caption is unchanged).
 */
export function ShotMarkers({ work }: { work: WorkDetail }) {
  const marked = work.shots.filter((shot) => shot.needsRegeneration);
  if (work.shots.length === 0) return null;
  const redraw = `/video/promptWord/${work.workId}${flowQuery(work.type as ComicType, work.workId)}`;
  return (
    <Flex vertical gap={8}>
      {marked.length > 0 ? (
        <Flex gap={8} align="center" wrap>
          <Typography.Text type="warning">
            {marked.length} 个分镜用了本地画面（图像服务出错或未配置）
          </Typography.Text>
          <Link to={redraw}>
            <Button size="small">去重绘这些画面</Button>
          </Link>
        </Flex>
      ) : (
        <Typography.Text type="secondary">所有分镜都用了生成的画面</Typography.Text>
      )}
      <Flex gap={6} wrap>
        {work.shots.map((shot) => (
          <Flex key={shot.index} vertical align="center" gap={2} style={{ width: 64 }}>
            {shot.imageUrl ? (
              <Image
                src={mediaUrl(shot.imageUrl)}
                alt={`分镜 ${shot.index + 1}`}
                width={64}
                height={86}
                style={{ objectFit: 'cover', borderRadius: 4 }}
              />
            ) : (
              <div style={{ width: 64, height: 86 }} />
            )}
            {shot.needsRegeneration ? (
              <Tag color="warning" style={{ margin: 0 }}>
                待重绘
              </Tag>
            ) : (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {shot.index + 1}
              </Typography.Text>
            )}
          </Flex>
        ))}
      </Flex>
    </Flex>
  );
}
