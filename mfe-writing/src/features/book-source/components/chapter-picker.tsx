import { useState } from 'react';
import { App, Button, Checkbox, Flex, Modal, Spin, Typography } from 'antd';
import { EyeOutlined } from '@ant-design/icons';
import {
  getChapterContent,
  type BookDetail,
  type ChapterContent,
  errorMessage,
} from '@kol/shared-sdk';

interface ChapterPickerProps {
  book: BookDetail;
  selected: number[];
  onChange: (chapterIds: number[]) => void;
}

/** The chosen book's chapters with their word counts: tick the ones to write from, preview any. */
export function ChapterPicker({ book, selected, onChange }: ChapterPickerProps) {
  const { message } = App.useApp();
  const [preview, setPreview] = useState<ChapterContent | null>(null);
  const [loadingId, setLoadingId] = useState<number | null>(null);
  const chosen = new Set(selected);
  const allChosen = book.chapters.length > 0 && selected.length === book.chapters.length;

  const toggle = (chapterId: number, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(chapterId);
    else next.delete(chapterId);
    // Book order, whatever order they were ticked in.
    onChange(book.chapters.map((c) => c.chapterId).filter((id) => next.has(id)));
  };

  const openPreview = async (chapterId: number) => {
    setLoadingId(chapterId);
    try {
      setPreview(await getChapterContent({ bookId: book.bookId, chapterId }));
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setLoadingId(null);
    }
  };

  const words = book.chapters
    .filter((c) => chosen.has(c.chapterId))
    .reduce((sum, c) => sum + c.wordCount, 0);

  return (
    <Flex vertical gap={8} data-testid="chapter-picker">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Checkbox
          checked={allChosen}
          indeterminate={selected.length > 0 && !allChosen}
          onChange={(event) =>
            onChange(event.target.checked ? book.chapters.map((c) => c.chapterId) : [])
          }
        >
          全选
        </Checkbox>
        <Typography.Text type="secondary" data-testid="chapter-summary">
          已选 {selected.length} 章，共 {words} 字
        </Typography.Text>
      </Flex>
      <Flex vertical gap={4} style={{ maxHeight: 320, overflowY: 'auto' }}>
        {book.chapters.map((chapter) => (
          <Flex key={chapter.chapterId} justify="space-between" align="center" gap={8}>
            <Checkbox
              data-testid={`chapter-${chapter.chapterId}`}
              checked={chosen.has(chapter.chapterId)}
              onChange={(event) => toggle(chapter.chapterId, event.target.checked)}
            >
              {chapter.title}
            </Checkbox>
            <Flex align="center" gap={4}>
              <Typography.Text type="secondary">{chapter.wordCount} 字</Typography.Text>
              <Button
                size="small"
                type="text"
                icon={<EyeOutlined aria-hidden />}
                aria-label={`预览 ${chapter.title}`}
                loading={loadingId === chapter.chapterId}
                onClick={() => void openPreview(chapter.chapterId)}
              />
            </Flex>
          </Flex>
        ))}
      </Flex>
      <Modal
        title={preview?.title ?? '章节预览'}
        open={preview !== null || loadingId !== null}
        footer={
          <Button onClick={() => setPreview(null)} data-testid="chapter-preview-close">
            关闭
          </Button>
        }
        onCancel={() => setPreview(null)}
        width={720}
      >
        {preview ? (
          <Typography.Paragraph
            data-testid="chapter-preview"
            style={{ whiteSpace: 'pre-wrap', maxHeight: '60vh', overflowY: 'auto' }}
          >
            {preview.content}
          </Typography.Paragraph>
        ) : (
          <Spin />
        )}
      </Modal>
    </Flex>
  );
}
