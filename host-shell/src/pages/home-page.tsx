import {
  getUserNewestWorks,
  mediaUrl,
  remainingGenerations,
  videoTypeLabel,
  QUOTA_TYPE_LABELS,
  TEMPLATE_OF_PROJECT,
  WORK_MENU_ITEMS,
  type ProjectType,
  type QuotaType,
  type WorkSummary,
  formatTime,
} from '@kol/shared-sdk';
import { currentUserAtom, noticesAtom, usageLimitsAtom } from '@kol/shared-sdk/state';
import { PictureOutlined } from '@ant-design/icons';
import { Empty, Flex, Typography, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Link } from '@kol/shared-sdk/router';
import { Figure } from '../components/figure';
import { Panel } from '../components/panel';
import { Rows } from '../components/rows';
import { useNotices } from '../lib/notices';

/** How many newest works the home page shows. */
const NEWEST_WORKS = 5;

const SHORTCUTS = [
  { to: '/generate', title: '一键成文', text: '选书选章，生成推文文案' },
  { to: '/create', title: '创意写作', text: '提纲、续写、改写、润色' },
  { to: '/video?type=composite', title: '视频合成', text: '漫剪、AI漫剧、解压、滚屏…' },
  { to: '/video/tool?type=tools', title: '视频工具', text: '配音、去重、字幕、配图' },
];

const GLANCE_TYPES: QuotaType[] = [
  'comics',
  'decompression',
  'scroll',
  'convert',
  'market',
  'realOpera',
];

const isMaking = (work: WorkSummary) =>
  work.taskId !== null && (work.state === 'queued' || work.state === 'running');

/**
 * Where a newest work leads: while its newest task is being made, to its live progress (its
 * taskId is that unfinished task, so its video page would have nothing to show yet); once it has
 * a video, to that video's page; otherwise to the works list of its type (the work-menu item of
 * its template id), or My copy for a type without one.
 */
export function newestWorkPath(work: WorkSummary): string {
  if (isMaking(work)) return `/video/production?workId=${work.workId}`;
  if (work.taskId !== null && work.videoUrl) {
    return `/video/short/${encodeURIComponent(work.taskId)}`;
  }
  const templateId = TEMPLATE_OF_PROJECT[work.type as ProjectType] ?? null;
  const item =
    templateId === null
      ? undefined
      : WORK_MENU_ITEMS.find((entry) => entry.templateId === templateId);
  return item?.path ?? '/work';
}

/** A short word on where the work's video is. */
function workStateText(work: WorkSummary): string {
  if (work.taskId === null) return '未生成';
  if (isMaking(work)) return `生成中 ${Math.round(work.progress)}%`;
  if (work.state === 'failed') return '生成失败';
  if (work.state === 'cancelled') return '已取消';
  return '已完成';
}

const THUMB = { width: 48, height: 64 };

/**
 * Columns at least `min` px wide, as many as fit, stretched to the width (four shortcuts on a desktop, two on a phone):
 * a CSS grid rather than antd's Row and Col, one less component on the first load.
 */
const grid = (min: number) =>
  ({
    display: 'grid',
    gridTemplateColumns: `repeat(auto-fit, minmax(min(100%, ${min}px), 1fr))`,
    gap: 16,
  }) as const;

/** A work's cover, small; a neutral block of the same size when it has none. */
function WorkThumb({ work }: { work: WorkSummary }) {
  const { token } = theme.useToken();
  const frame = { ...THUMB, flex: 'none', borderRadius: token.borderRadiusSM } as const;
  if (work.coverUrl) {
    return (
      <img
        src={mediaUrl(work.coverUrl)}
        alt={`${work.title} 封面`}
        loading="lazy"
        style={{ ...frame, objectFit: 'cover' }}
      />
    );
  }
  return (
    <Flex
      align="center"
      justify="center"
      role="img"
      aria-label={`${work.title} 暂无封面`}
      style={{ ...frame, background: token.colorFillTertiary, color: token.colorTextQuaternary }}
    >
      <PictureOutlined aria-hidden />
    </Flex>
  );
}

/** `/`: create shortcuts, newest works, quotas at a glance, latest notices. */
export function HomePage() {
  const user = useAtomValue(currentUserAtom);
  const limits = useAtomValue(usageLimitsAtom);
  const notices = useAtomValue(noticesAtom);
  // Asked each time the page shows: a work being made has moved on since.
  const newest = useQuery({
    queryKey: ['newest-works', { limit: NEWEST_WORKS }],
    queryFn: ({ signal }) => getUserNewestWorks({ limit: NEWEST_WORKS }, { signal }),
    staleTime: 0,
  });
  // A failed list shows as none: the page's other parts stand on their own.
  const works: WorkSummary[] | null = newest.data ?? (newest.isError ? [] : null);
  useNotices();

  return (
    <div data-testid="home-page">
      <Typography.Title level={1} style={{ fontSize: 24 }}>
        你好，{user?.nickname || user?.username}
      </Typography.Title>
      <div style={grid(150)}>
        {SHORTCUTS.map((shortcut) => (
          <div key={shortcut.to}>
            <Link to={shortcut.to}>
              <Panel hoverable title={shortcut.title}>
                <Typography.Text type="secondary">{shortcut.text}</Typography.Text>
              </Panel>
            </Link>
          </div>
        ))}
      </div>
      <div style={{ ...grid(420), marginTop: 16 }}>
        <div>
          <Panel title="剩余次数" extra={<Link to="/user">查看全部</Link>}>
            <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 8 }}>
              {GLANCE_TYPES.map((type) => (
                <div key={type}>
                  <Figure
                    label={QUOTA_TYPE_LABELS[type]}
                    value={limits ? remainingGenerations(limits, type) : '—'}
                  />
                </div>
              ))}
            </div>
          </Panel>
        </div>
        <div>
          <Panel title="最新作品">
            {works && works.length > 0 ? (
              <Rows items={works} rowKey={(work) => work.workId}>
                {(work) => (
                  <Link
                    to={newestWorkPath(work)}
                    data-testid={`newest-work-${work.workId}`}
                    style={{ display: 'flex', gap: 12, alignItems: 'center', width: '100%' }}
                  >
                    <WorkThumb work={work} />
                    <Flex vertical style={{ minWidth: 0 }}>
                      <Typography.Text strong ellipsis>
                        {work.title}
                      </Typography.Text>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {videoTypeLabel(work.type)} · {workStateText(work)} ·{' '}
                        {formatTime(work.updateTime)}
                      </Typography.Text>
                    </Flex>
                  </Link>
                )}
              </Rows>
            ) : (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description="还没有作品，从上面的入口开始创作吧"
              />
            )}
          </Panel>
        </div>
        <div style={{ gridColumn: '1 / -1' }}>
          <Panel title="最新通知">
            {notices.length > 0 ? (
              <Rows items={notices.slice(0, 5)} rowKey={(notice) => notice.id}>
                {(notice) => (
                  <>
                    <Typography.Text strong={notice.status === 0}>{notice.title}</Typography.Text>
                    <Typography.Text type="secondary">
                      {formatTime(notice.updateTime)}
                    </Typography.Text>
                  </>
                )}
              </Rows>
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无通知" />
            )}
          </Panel>
        </div>
      </div>
    </div>
  );
}
