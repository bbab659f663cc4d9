import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Flex,
  Input,
  Pagination,
  Popconfirm,
  Spin,
  Typography,
} from 'antd';
import { DeleteOutlined, EditOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { Link } from '@kol/shared-sdk/router';
import { VideoTypeChooser } from '@kol/shared-sdk/ui';
import { deleteWork, formatTime, type WorkSummary, errorMessage } from '@kol/shared-sdk';
import { WORKS_PAGE_SIZE, useWorks } from '../features/my-copy/api/use-works';
import { useSendToVideo } from '../features/my-copy/api/use-send-to-video';
import { WorkEditor } from '../features/my-copy/components/work-editor';

interface WorkRowProps {
  work: WorkSummary;
  onEdit: () => void;
  onUse: () => void;
  using: boolean;
  onDelete: () => Promise<void>;
}

function WorkRow({ work, onEdit, onUse, using, onDelete }: WorkRowProps) {
  return (
    <Card size="small" data-testid={`work-${work.workId}`}>
      <Flex justify="space-between" align="start" gap={12} wrap>
        <Flex vertical gap={4} style={{ flex: 1, minWidth: 200 }}>
          <Typography.Text strong>{work.title}</Typography.Text>
          <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
            {work.excerpt || '（空）'}
          </Typography.Paragraph>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            更新于 {formatTime(work.updateTime)}
          </Typography.Text>
        </Flex>
        <Flex gap={8} wrap>
          <Button
            icon={<EditOutlined aria-hidden />}
            onClick={onEdit}
            aria-label={`编辑 ${work.title}`}
            data-testid={`work-edit-${work.workId}`}
          >
            编辑
          </Button>
          <Button
            icon={<VideoCameraOutlined aria-hidden />}
            onClick={onUse}
            loading={using}
            aria-label={`用于视频 ${work.title}`}
            data-testid={`work-use-${work.workId}`}
          >
            用于视频
          </Button>
          <Popconfirm
            title="删除这篇文案？"
            description="删除后无法恢复。"
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={onDelete}
          >
            <Button
              danger
              icon={<DeleteOutlined aria-hidden />}
              aria-label={`删除 ${work.title}`}
              data-testid={`work-delete-${work.workId}`}
            >
              删除
            </Button>
          </Popconfirm>
        </Flex>
      </Flex>
    </Card>
  );
}

/** `/work` 我的文案: every saved text, searchable, editable, deletable, and usable in a video. */
export function MyCopyPage() {
  const { message } = App.useApp();
  const [query, setQuery] = useState('');
  const [keyword, setKeyword] = useState('');
  const [pageIndex, setPageIndex] = useState(1);
  const [editingId, setEditingId] = useState<number | null>(null);
  const works = useWorks({ keyword, pageIndex });
  const { sendWork, sendText, sendingId, choosing, choose, cancel } = useSendToVideo();

  const search = (value: string) => {
    setKeyword(value.trim());
    setPageIndex(1);
  };

  const remove = async (work: WorkSummary) => {
    try {
      await deleteWork({ workId: work.workId });
      void message.success('已删除');
      // The last row of a later page: show the page before it.
      if (works.items.length === 1 && pageIndex > 1) setPageIndex(pageIndex - 1);
      else works.reload();
    } catch (error) {
      void message.error(errorMessage(error));
      throw error;
    }
  };

  const empty = !works.loading && !works.error && works.items.length === 0;

  return (
    <Flex vertical gap={16} style={{ maxWidth: 1200, width: '100%' }}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Title level={1} style={{ margin: 0, fontSize: 24 }}>
          我的文案
        </Typography.Title>
        <Input.Search
          aria-label="搜索文案"
          data-testid="work-search"
          placeholder="按标题或内容搜索"
          allowClear
          enterButton="搜索"
          maxLength={50}
          style={{ maxWidth: 360 }}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            // Clearing the box shows everything again.
            if (event.target.value === '' && keyword) search('');
          }}
          onSearch={search}
        />
      </Flex>
      {works.error && (
        <Alert
          type="error"
          showIcon
          title={works.error}
          action={
            <Button size="small" onClick={works.reload}>
              重试
            </Button>
          }
        />
      )}
      {works.loading && works.items.length === 0 ? (
        <Spin description="加载中" />
      ) : empty ? (
        keyword ? (
          <Empty description={`没有找到包含“${keyword}”的文案`} data-testid="work-empty">
            <Button
              onClick={() => {
                setQuery('');
                search('');
              }}
            >
              清除搜索
            </Button>
          </Empty>
        ) : (
          <Empty description="还没有保存的文案" data-testid="work-empty">
            <Link to="/generate" data-testid="work-empty-generate">
              去一键成文写一篇
            </Link>
          </Empty>
        )
      ) : (
        <Flex vertical gap={12} data-testid="work-list">
          {works.items.map((work) => (
            <WorkRow
              key={work.workId}
              work={work}
              onEdit={() => setEditingId(work.workId)}
              onUse={() => void sendWork(work.workId)}
              using={sendingId === work.workId}
              onDelete={() => remove(work)}
            />
          ))}
          {works.total > WORKS_PAGE_SIZE && (
            <Pagination
              data-testid="work-pagination"
              current={pageIndex}
              pageSize={WORKS_PAGE_SIZE}
              total={works.total}
              showSizeChanger={false}
              onChange={setPageIndex}
              style={{ alignSelf: 'center' }}
            />
          )}
        </Flex>
      )}
      <WorkEditor
        workId={editingId}
        onClose={() => setEditingId(null)}
        onSaved={works.reload}
        onUseInVideo={sendText}
      />
      <VideoTypeChooser
        open={choosing}
        title="用于视频：选择视频类型"
        onChoose={choose}
        onCancel={cancel}
      />
    </Flex>
  );
}
