import { BellOutlined } from '@ant-design/icons';
import {
  getNoticeCategories,
  getNoticeCount,
  getNoticeList,
  markAllNoticesRead,
  markNoticeRead,
  type NoticeCategory,
  formatTime,
} from '@kol/shared-sdk';
import {
  markAllNoticesReadAtom,
  markNoticeReadAtom,
  noticesAtom,
  unreadNoticeCountAtom,
} from '@kol/shared-sdk/state';
import { App, Badge, Button, Empty, Popover, Spin, Typography } from 'antd';
import { Rows } from '../components/rows';
import { useAtom, useSetAtom } from 'jotai';
import { useCallback, useEffect, useState } from 'react';

/** The header's notices bell: unread count, the list grouped by category, read one or all. */
export function NoticesBell() {
  const { message } = App.useApp();
  const [count, setCount] = useAtom(unreadNoticeCountAtom);
  const [notices, setNotices] = useAtom(noticesAtom);
  const markOne = useSetAtom(markNoticeReadAtom);
  const markAll = useSetAtom(markAllNoticesReadAtom);
  const [categories, setCategories] = useState<NoticeCategory[]>([]);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    getNoticeCount()
      .then(({ count: unread }) => setCount(unread))
      .catch(() => undefined);
  }, [setCount]);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const [list, cats] = await Promise.all([getNoticeList(), getNoticeCategories()]);
      setNotices(list.items);
      setCategories(cats);
    } catch (error) {
      message.error(error instanceof Error ? error.message : '通知加载失败');
    } finally {
      setLoading(false);
    }
  }, [setNotices, message]);

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
      onOpenChange={(open) => open && void load()}
    >
      <Button
        type="text"
        aria-label="通知"
        icon={
          <Badge count={count} size="small">
            <BellOutlined style={{ fontSize: 18 }} />
          </Badge>
        }
      />
    </Popover>
  );
}
