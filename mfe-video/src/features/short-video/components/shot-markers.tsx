import { mediaUrl } from '@kol/shared-sdk';
import { Button, Flex, Image, Tag, Typography } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import type { QualityReport, WorkDetail } from '@kol/shared-sdk';
import { videoQuery } from '../../../lib/video-address';

/**
 * The video's shots as pictures, the ones that fell back to a local frame marked, with the way
 * to redraw them (the next video keeps a redrawn picture while its caption is unchanged), and
 * the ones the local renderer drew for want of an image service (the video's report lists
 * them). It says every picture was generated only when the report says so.
 */
export function ShotMarkers({ work, report }: { work: WorkDetail; report: QualityReport | null }) {
  const marked = work.shots.filter((shot) => shot.needsRegeneration);
  const local = new Set(report?.localShots ?? []);
  const missing = work.shots.filter((shot) => !shot.imageUrl);
  if (work.shots.length === 0) return null;
  // Known generated: a report that checked the pictures found none local, failed or missing.
  const allGenerated =
    report?.localShots !== undefined &&
    report.localShots.length === 0 &&
    report.providers.pictures !== null &&
    marked.length === 0 &&
    missing.length === 0;
  const redraw = `/video/promptWord/${work.workId}${videoQuery(work.type, work.workId)}`;
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
      ) : null}
      {local.size > 0 && (
        <Typography.Text type="warning">
          {`${local.size === work.shots.length ? '全部 ' : ''}${local.size} 个分镜是本地画面（未配置图像服务）：只有文字排版，不是生成的插画`}
        </Typography.Text>
      )}
      {missing.length > 0 && (
        <Typography.Text type="warning">{missing.length} 个分镜没有画面</Typography.Text>
      )}
      {allGenerated && (
        <Typography.Text type="secondary">所有分镜都用了图像服务生成的画面</Typography.Text>
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
            ) : local.has(shot.index) ? (
              <Tag style={{ margin: 0 }}>本地画面</Tag>
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
