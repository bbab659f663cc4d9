import { Button, Card, Dropdown, Flex, Tag, Tooltip, Typography, type MenuProps } from 'antd';
import {
  DeleteOutlined,
  DownOutlined,
  DownloadOutlined,
  EditOutlined,
  ExportOutlined,
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
  exportProjectUrl,
  formatDurationMs,
  formatTime,
  isOverseasProjectType,
  mediaUrl,
  videoTypeLabel,
  type WorkSummary,
} from '@kol/shared-sdk';
import { MLT_EXPORT_HINT } from '@kol/shared-sdk/ui';
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
  /** 导出剪映草稿: the list's dialog asks for the drafts folder or links the draft. */
  onExportDraft: () => void;
  onRegenerate: () => void;
  onRename: () => void;
  onMove: () => void;
  onRemove: () => void;
}

type MenuItem = NonNullable<MenuProps['items']>[number];

/** A 更多 item whose reason for being disabled is read under its name, not hidden in a tooltip. */
function withReason(label: string, reason: string | null) {
  if (reason === null) return label;
  return (
    <Flex vertical>
      <span>{label}</span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {reason}
      </Typography.Text>
    </Flex>
  );
}

/**
 * One work of a list: cover, title, type, length, update time, where its video is, and what can
 * be done with it. What a work offers follows what it has: a video to play and download, a task
 * to look at, or nothing made yet (去制作).
 *
 * Only the most used actions are buttons, each with its text (编辑 or 去制作, 查看); the rest sit
 * in the 更多 menu. A row of eight icon-only buttons, two of them pencils, left creators guessing.
 */
export function WorkCard({
  work,
  regenerateBlocked,
  onPlay,
  onExportDraft,
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
  // The newest finished video as an editor's project (absent on an older answer: offered, and
  // the server has the last word). In the menu, not the row: a card shows three actions at most.
  const exportRefusal = work.exportRefusal ?? null;
  const exportItems: MenuItem[] = !work.videoUrl
    ? []
    : exportRefusal !== null
      ? [{ key: 'export', label: withReason('导出剪映草稿或工程', exportRefusal), disabled: true }]
      : [
          { key: 'jianying', icon: <ExportOutlined aria-hidden />, label: '导出剪映草稿' },
          {
            key: 'mlt',
            icon: <ExportOutlined aria-hidden />,
            // A real link, as the downloads above: the ZIP streams to the disk.
            label: (
              <a href={exportProjectUrl(work.workId, 'mlt')} download title={MLT_EXPORT_HINT}>
                导出工程（Shotcut / Kdenlive）
              </a>
            ),
          },
        ];

  // The items' icons are decoration (aria-hidden): their own names are English.
  const moreItems: MenuItem[] = [
    work.videoUrl ? { key: 'play', icon: <PlayCircleOutlined aria-hidden />, label: '播放' } : null,
    work.videoUrl
      ? {
          key: 'video',
          icon: <DownloadOutlined aria-hidden />,
          // A real link, so the browser downloads the file under the work's title.
          label: (
            <a href={mediaUrl(work.videoUrl)} download={`${title}.mp4`}>
              下载视频（MP4）
            </a>
          ),
        }
      : null,
    work.srtUrl
      ? {
          key: 'captions',
          icon: <FileTextOutlined aria-hidden />,
          label: (
            <a href={mediaUrl(work.srtUrl)} download={`${title}.srt`}>
              下载字幕（SRT）
            </a>
          ),
        }
      : null,
    ...exportItems,
    generated
      ? {
          key: 'regenerate',
          icon: <RedoOutlined aria-hidden />,
          label: withReason('重新生成', regenerateReason),
          disabled: regenerateReason !== null,
        }
      : null,
    { key: 'rename', icon: <FormOutlined aria-hidden />, label: '重命名' },
    { key: 'move', icon: <SwapOutlined aria-hidden />, label: moveText },
    { type: 'divider' },
    { key: 'remove', icon: <DeleteOutlined aria-hidden />, label: '删除', danger: true },
  ];
  const onMore: MenuProps['onClick'] = ({ key, domEvent }) => {
    if (key === 'play') onPlay();
    else if (key === 'jianying') onExportDraft();
    else if (key === 'regenerate') onRegenerate();
    else if (key === 'rename') onRename();
    else if (key === 'move') onMove();
    else if (key === 'remove') onRemove();
    else if (!(domEvent.target as HTMLElement).closest('a')) {
      // A download item is a link, followed by the browser; a click on the item's padding,
      // outside the link's text, follows it too.
      (domEvent.currentTarget as HTMLElement).querySelector('a')?.click();
    }
  };

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
        {generated ? (
          // The editor works on a made video: not while a new one is being made over it.
          making ? (
            <Tooltip title="正在生成，完成后才能编辑">
              <Button
                size="small"
                type="primary"
                icon={<EditOutlined aria-hidden />}
                aria-label={`编辑 ${title}`}
                disabled
              >
                编辑
              </Button>
            </Tooltip>
          ) : (
            <RouteButton
              size="small"
              type="primary"
              icon={<EditOutlined aria-hidden />}
              aria-label={`编辑 ${title}`}
              to={cutPathOf(work.workId)}
            >
              编辑
            </RouteButton>
          )
        ) : (
          <RouteButton
            size="small"
            type="primary"
            icon={<VideoCameraAddOutlined aria-hidden />}
            aria-label={`去制作 ${title}`}
            to={makePathOf(work)}
          >
            去制作
          </RouteButton>
        )}
        {work.taskId !== null && (
          <RouteButton
            size="small"
            icon={<EyeOutlined aria-hidden />}
            aria-label={`查看 ${title}`}
            to={videoPathOf(work.taskId)}
          >
            查看
          </RouteButton>
        )}
        <Dropdown trigger={['click']} menu={{ items: moreItems, onClick: onMore }}>
          <Button size="small" aria-label={`更多 ${title}`}>
            更多 <DownOutlined aria-hidden />
          </Button>
        </Dropdown>
      </Flex>
    </Card>
  );
}
