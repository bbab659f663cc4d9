import { useState } from 'react';
import { Alert, App, Button, Empty, Flex, Input, Pagination, Spin, Typography } from 'antd';
import { formatTime, getWorkInfo, errorMessage } from '@kol/shared-sdk';
import { MY_COPY_PAGE_SIZE, useMyCopy } from '../api/use-my-copy';

interface MyCopyPickerProps {
  /** The chosen text's whole text and title. */
  onPick: (text: string, title: string) => void;
}

/** 我的文案: search the saved texts and take one's whole text (`work_info`). */
export function MyCopyPicker({ onPick }: MyCopyPickerProps) {
  const { message } = App.useApp();
  const [query, setQuery] = useState('');
  const [keyword, setKeyword] = useState('');
  const [pageIndex, setPageIndex] = useState(1);
  const [pickingId, setPickingId] = useState<number | null>(null);
  const works = useMyCopy(keyword, pageIndex);

  const pick = async (workId: number) => {
    setPickingId(workId);
    try {
      const work = await getWorkInfo({ workId });
      if (!work.text.trim()) {
        void message.warning('这篇文案是空的，请换一篇');
        return;
      }
      onPick(work.text, work.title);
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setPickingId(null);
    }
  };

  return (
    <Flex vertical gap={8}>
      <Input.Search
        aria-label="搜索我的文案"
        placeholder="按标题或内容搜索"
        allowClear
        enterButton="搜索"
        maxLength={50}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onSearch={(value) => {
          setKeyword(value.trim());
          setPageIndex(1);
        }}
      />
      {works.error && (
        <Alert
          type="error"
          showIcon
          title={works.error}
          action={
            <Button size="small" onClick={works.reload}>
              重新加载
            </Button>
          }
        />
      )}
      {works.loading ? (
        <Spin description="加载中" />
      ) : works.items.length === 0 && !works.error ? (
        <Empty description={keyword ? `没有找到包含“${keyword}”的文案` : '还没有保存的文案'} />
      ) : (
        <Flex vertical gap={6}>
          {works.items.map((work) => (
            <Flex key={work.workId} justify="space-between" align="center" gap={8}>
              <Flex vertical style={{ minWidth: 0 }}>
                <Typography.Text strong ellipsis>
                  {work.title}
                </Typography.Text>
                <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
                  {formatTime(work.updateTime)} · {work.excerpt || '（空）'}
                </Typography.Text>
              </Flex>
              <Button
                autoInsertSpace={false}
                size="small"
                aria-label={`使用文案 ${work.title}`}
                loading={pickingId === work.workId}
                onClick={() => void pick(work.workId)}
              >
                使用
              </Button>
            </Flex>
          ))}
          {works.total > MY_COPY_PAGE_SIZE && (
            <Pagination
              size="small"
              current={pageIndex}
              pageSize={MY_COPY_PAGE_SIZE}
              total={works.total}
              showSizeChanger={false}
              onChange={setPageIndex}
            />
          )}
        </Flex>
      )}
    </Flex>
  );
}
