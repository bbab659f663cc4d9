import { BellOutlined } from '@ant-design/icons';
import { markAllNoticesRead, markNoticeRead, formatTime } from '@kol/shared-sdk';
import {
  markAllNoticesReadAtom,
  markNoticeReadAtom,
  noticesAtom,
  unreadNoticeCountAtom,
} from '@kol/shared-sdk/state';
import { App, Badge, Button, Empty, Popover, Spin, Typography } from 'antd';
import { Rows } from '../components/rows';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useNoticeCategories, useNotices, useUnreadNoticeCount } from '../lib/notices';
import { inHeader } from './in-header';

/** The header's notices bell: unread count, the list grouped by category, read one or all. */
export function NoticesBell() {
  const { message } = App.useApp();
  const count = useAtomValue(unreadNoticeCountAtom);
  const notices = useAtomValue(noticesAtom);
  const markOne = useSetAtom(markNoticeReadAtom);
  const markAll = useSetAtom(markAllNoticesReadAtom);
  // The count when the bell appears; the list and its categories each time it is opened.
  const [open, setOpen] = useState(false);
  // Asked as soon as the pointer or the keyboard reaches the bell, so the list is (nearly) in
  // by the click: asked only on the click, the panel was seen spinning for 2.8 s.
  const [wanted, setWanted] = useState(false);
  const want = () => setWanted(true);
  useUnreadNoticeCount();
  const list = useNotices(open || wanted);
  const categoryList = useNoticeCategories(open || wanted);
  const categories = categoryList.data ?? [];
  const loading = list.isPending || categoryList.isPending;

  // A failed ask of this opening is told once (not one from before it, nor again on reopening).
  const failure = list.error ?? categoryList.error;
  const failedAt = Math.max(list.errorUpdatedAt, categoryList.errorUpdatedAt);
  const openedAt = useRef(0);
  const toldAt = useRef(0);
  const openChange = (next: boolean) => {
    if (next) openedAt.current = Date.now();
    // Closed: the next approach asks again (each opening shows the list as it is then).
    else setWanted(false);
    setOpen(next);
  };
  useEffect(() => {
    if (!open || !failure || failedAt < openedAt.current || failedAt === toldAt.current) return;
    toldAt.current = failedAt;
    message.error(failure instanceof Error ? failure.message : '通知加载失败');
  }, [open, failure, failedAt, message]);

  const readOne = async (id: number, status: number) => {
    if (status === 1) return;
    try {
      await markNoticeRead(id);
      markOne(id);
    } catch (error) {
      message.error(error instanceof Error ? error.message : '操作失败');
    }
  };

  const readAll = async () => {
    try {
      await markAllNoticesRead();
      markAll();
    } catch (error) {
      message.error(error instanceof Error ? error.message : '操作失败');
    }
  };

  const groups = [
    ...categories.map((category) => ({
      category,
      items: notices.filter((n) => n.categoryId === category.id),
    })),
    {
      category: { id: -1, categoryName: '其他', categoryIcon: '' },
      items: notices.filter((n) => !categories.some((c) => c.id === n.categoryId)),
    },
  ].filter((group) => group.items.length > 0);

  const content = (
    <div style={{ width: 340, maxHeight: 420, overflowY: 'auto' }} data-testid="notices-panel">
      <div
        style={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          marginBottom: 8,
        }}
      >
        <Typography.Text strong>通知</Typography.Text>
        <Button
          size="small"
          type="link"
          onClick={readAll}
          disabled={count === 0 && notices.every((n) => n.status === 1)}
        >
          全部已读
        </Button>
      </div>
      {loading ? (
        <Spin />
      ) : groups.length === 0 ? (
        <Empty description="暂无通知" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        groups.map(({ category, items }) => (
          <div key={category.id}>
            <Typography.Text type="secondary">{category.categoryName}</Typography.Text>
            <Rows
              items={items}
              rowKey={(notice) => notice.id}
              rowProps={(notice) => ({
                'data-testid': `notice-${notice.id}`,
                'data-status': notice.status,
                onClick: () => readOne(notice.id, notice.status),
                style: {
                  cursor: notice.status === 0 ? 'pointer' : 'default',
                  opacity: notice.status === 0 ? 1 : 0.6,
                },
              })}
            >
              {(notice) => (
                <div style={{ minWidth: 0 }}>
                  <Badge dot={notice.status === 0} offset={[6, 0]}>
                    <Typography.Text strong>{notice.title}</Typography.Text>
                  </Badge>
                  {/* Plain text: notice content is never rendered as HTML. */}
                  <Typography.Paragraph
                    type="secondary"
                    style={{ whiteSpace: 'pre-wrap', margin: 0 }}
                  >
                    {notice.content}
                  </Typography.Paragraph>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {formatTime(notice.updateTime)}
                  </Typography.Text>
                </div>
              )}
            </Rows>
          </div>
        ))
      )}
    </div>
  );

  return (
    <Popover
      trigger="click"
      content={content}
      placement="bottomRight"
      onOpenChange={openChange}
      getPopupContainer={inHeader}
    >
      <Button
        type="text"
        // The badge's number is text on the button: its name says it too (a name that leaves out
        // what is shown is what the accessibility audit refuses).
        aria-label={count > 0 ? `通知 ${count > 99 ? '99+' : count} 条未读` : '通知'}
        onPointerEnter={want}
        onFocus={want}
        icon={
          <Badge count={count} size="small">
            <BellOutlined aria-hidden style={{ fontSize: 18 }} />
          </Badge>
        }
      />
    </Popover>
  );
}
