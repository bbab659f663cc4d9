import { Button, Card, Flex, Tag, Tooltip, Typography } from 'antd';
import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  EyeOutlined,
  FileTextOutlined,
  FormOutlined,
  PlayCircleOutlined,
  RedoOutlined,
  SwapOutlined,
  VideoCameraAddOutlined,
} from '@ant-design/icons';
import {
  CreationFlag,
  formatDurationMs,
  formatTime,
  isOverseasProjectType,
  mediaUrl,
  videoTypeLabel,
  type WorkSummary,
} from '@kol/shared-sdk';
import { isMaking } from '../api/use-type-works';
import { cutPathOf, makePathOf, videoPathOf } from '../work-paths';
import { RouteButton } from './route-button';
import { WorkCover } from './work-cover';
import { WorkStatus } from './work-status';

export interface WorkCardProps {
  work: WorkSummary;
  /** Why 重新生成 cannot be used now (no count left for the type), or null. */
  regenerateBlocked: string | null;
  onPlay: () => void;
  onRegenerate: () => void;
  onRename: () => void;
  onMove: () => void;
  onRemove: () => void;
}

/**
 * One work of a list: cover, title, type, length, update time, where its video is, and what can
 * be done with it. What a work offers follows what it has: a video to play and download, a task
 * to look at, or nothing made yet (去制作).
 */
export function WorkCard({
  work,
  regenerateBlocked,
  onPlay,
  onRegenerate,
  onRename,
  onMove,
  onRemove,
}: WorkCardProps) {
  const { title } = work;
  const making = isMaking(work);
  const generated = work.taskId !== null;
  const moveText = work.flag === CreationFlag.creation ? '移到草稿' : '移到作品';
  const regenerateReason = making ? '正在生成，完成后才能重新生成' : regenerateBlocked;

  return (
    <Card
      size="small"
      data-testid={`work-card-${work.workId}`}
      role="group"
      aria-label={title}
      cover={<WorkCover title={title} coverUrl={work.coverUrl} />}
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 8, flex: 1 } }}
      style={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      <Typography.Text strong ellipsis={{ tooltip: title }}>
        {title}
      </Typography.Text>
      <Flex gap={4} wrap align="center">
        <Tag>{videoTypeLabel(work.type)}</Tag>
        {isOverseasProjectType(work.type) && <Tag color="blue">海外</Tag>}
        {work.reportProblems > 0 && (
          // The details (what and where) are on the video's page; the card only says to look.
          <Tooltip title={`质量报告发现 ${work.reportProblems} 个问题，打开「查看」了解详情`}>
            <Tag color="warning" aria-label={`${title} 需检查`}>
              需检查
            </Tag>
          </Tooltip>
        )}
        {work.durationMs > 0 && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            时长 {formatDurationMs(work.durationMs)}
          </Typography.Text>
        )}
      </Flex>
      <WorkStatus work={work} />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        更新于 {formatTime(work.updateTime)}
      </Typography.Text>
      <Flex gap={6} wrap style={{ marginTop: 'auto' }}>
        {work.videoUrl && (
          <Button
            size="small"
            type="primary"
            icon={<PlayCircleOutlined />}
            aria-label={`播放 ${title}`}
            onClick={onPlay}
          >
            播放
          </Button>
        )}
        {work.taskId !== null && (
          <RouteButton
            size="small"
            icon={<EyeOutlined />}
            aria-label={`查看 ${title}`}
            to={videoPathOf(work.taskId)}
          >
            查看
          </RouteButton>
        )}
        {!generated && (
          <RouteButton
            size="small"
            type="primary"
            icon={<VideoCameraAddOutlined />}
            aria-label={`去制作 ${title}`}
            to={makePathOf(work)}
          >
            去制作
          </RouteButton>
        )}
        {work.videoUrl && (
          <Tooltip title="下载视频（MP4）">
            <Button
              size="small"
              icon={<DownloadOutlined />}
              aria-label={`下载视频 ${title}`}
              href={mediaUrl(work.videoUrl)}
              download={`${title}.mp4`}
            />
          </Tooltip>
        )}
        {work.srtUrl && (
          <Tooltip title="下载字幕（SRT）">
            <Button
              size="small"
              icon={<FileTextOutlined />}
              aria-label={`下载字幕 ${title}`}
              href={mediaUrl(work.srtUrl)}
              download={`${title}.srt`}
            />
          </Tooltip>
        )}
        {generated && (
          // The editor works on a made video: not while a new one is being made over it.
          <Tooltip title={making ? '正在生成，完成后才能编辑' : '编辑'}>
            {making ? (
              <Button size="small" icon={<EditOutlined />} aria-label={`编辑 ${title}`} disabled />
            ) : (
              <RouteButton
                size="small"
                icon={<EditOutlined />}
                aria-label={`编辑 ${title}`}
                to={cutPathOf(work.workId)}
              />
            )}
          </Tooltip>
        )}
        {generated && (
          <Tooltip title={regenerateReason ?? '重新生成'}>
            <Button
              size="small"
              icon={<RedoOutlined />}
              aria-label={`重新生成 ${title}`}
              disabled={regenerateReason !== null}
              onClick={onRegenerate}
            />
          </Tooltip>
        )}
        <Tooltip title="重命名">
          <Button
            size="small"
            icon={<FormOutlined />}
            aria-label={`重命名 ${title}`}
            onClick={onRename}
          />
        </Tooltip>
        <Tooltip title={moveText}>
          <Button
            size="small"
            icon={<SwapOutlined />}
            aria-label={`${moveText} ${title}`}
            onClick={onMove}
          />
        </Tooltip>
        <Tooltip title="删除">
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={`删除 ${title}`}
            onClick={onRemove}
          />
        </Tooltip>
      </Flex>
    </Card>
  );
}
