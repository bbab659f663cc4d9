import { useState } from 'react';
import { Alert, Checkbox, Empty, Flex, Radio, Select, Skeleton, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { SERIES_MAX_EPISODES } from '@kol/shared-sdk';
import { BookUpload } from './book-upload';
import { useBookDetail, useBookSearch, useCopyTexts } from '../api/use-books';
import type { SeriesDraft } from '../series-draft';

interface SeriesSourceProps {
  draft: SeriesDraft;
  onChange: (patch: Partial<SeriesDraft>) => void;
  /** Copy only: a book's chapters, and no narration to choose. */
  copyOnly?: boolean;
}

/**
 * Where the episodes come from: a range of a library book's chapters, or texts of My copy
 * (one episode each). The range is checked again by the server's plan, which names the problem.
 */
export function SeriesSource({ draft, onChange, copyOnly = false }: SeriesSourceProps) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const search = useBookSearch(name);
  const detail = useBookDetail(draft.bookId);
  const copy = useCopyTexts();
  const chapters = detail.book?.chapters ?? [];
  const count = draft.toChapter - draft.fromChapter + 1;

  return (
    <Flex vertical gap={12}>
      {!copyOnly && (
        <Radio.Group
          aria-label="内容来源"
          name="series-source"
          optionType="button"
          value={draft.source}
          onChange={(event) => onChange({ source: event.target.value as SeriesDraft['source'] })}
          options={[
            { value: 'book', label: '书库中的书' },
            { value: 'works', label: '我的文案' },
          ]}
        />
      )}
      {draft.source === 'book' || copyOnly ? (
        <Flex vertical gap={8}>
          {search.error && <Alert type="error" showIcon title={`书库加载失败：${search.error}`} />}
          <Flex gap={8} wrap>
            <Select
              aria-label="书籍"
              showSearch={{ filterOption: false, onSearch: setName }}
              placeholder="选择一本书，或输入书名搜索"
              loading={search.loading}
              value={draft.bookId ?? undefined}
              onChange={(bookId: number) => {
                const book = search.books.find((item) => item.bookId === bookId);
                onChange({
                  bookId,
                  fromChapter: 1,
                  toChapter: Math.min(book?.chapterCount ?? 3, 3),
                  title: book?.title ?? draft.title,
                  episodeTitles: [],
                });
              }}
              options={search.books.map((book) => ({
                value: book.bookId,
                label: `${book.title}（${book.author || '佚名'} · ${book.chapterCount} 章）`,
              }))}
              notFoundContent={search.loading ? '正在搜索…' : '没有找到这本书'}
              style={{ flex: 1, minWidth: 220 }}
            />
            <BookUpload
              onUploaded={(book) => {
                client.setQueryData(['series-book', book.bookId], book);
                void client.invalidateQueries({ queryKey: ['series-books'] });
                onChange({
                  bookId: book.bookId,
                  fromChapter: 1,
                  toChapter: Math.min(book.chapters.length, 3),
                  title: book.title,
                  episodeTitles: [],
                });
              }}
            />
          </Flex>
          {detail.error && <Alert type="error" showIcon title={`章节加载失败：${detail.error}`} />}
          {detail.loading && <Skeleton active paragraph={{ rows: 1 }} />}
          {detail.book && (
            <Flex gap={8} wrap align="center">
              <Typography.Text>从</Typography.Text>
              <Select
                aria-label="起始章节"
                style={{ minWidth: 200 }}
                value={draft.fromChapter}
                onChange={(fromChapter: number) => onChange({ fromChapter, episodeTitles: [] })}
                options={chapters.map((chapter, i) => ({ value: i + 1, label: chapter.title }))}
              />
              <Typography.Text>到</Typography.Text>
              <Select
                aria-label="结束章节"
                style={{ minWidth: 200 }}
                value={draft.toChapter}
                onChange={(toChapter: number) => onChange({ toChapter, episodeTitles: [] })}
                options={chapters.map((chapter, i) => ({ value: i + 1, label: chapter.title }))}
              />
              <Typography.Text
                type={count > SERIES_MAX_EPISODES || count < 1 ? 'danger' : 'secondary'}
              >
                {count >= 1
                  ? `共 ${count} 集（一个系列最多 ${SERIES_MAX_EPISODES} 集）`
                  : '起始章节在结束章节之后'}
              </Typography.Text>
            </Flex>
          )}
        </Flex>
      ) : (
        <Flex vertical gap={8}>
          {copy.error && <Alert type="error" showIcon title={`文案加载失败：${copy.error}`} />}
          {copy.loading ? (
            <Skeleton active paragraph={{ rows: 2 }} />
          ) : copy.texts.length === 0 ? (
            <Empty description="我的文案里还没有文案" />
          ) : (
            <Checkbox.Group
              aria-label="文案"
              value={draft.workIds}
              onChange={(workIds) => onChange({ workIds: workIds as number[], episodeTitles: [] })}
            >
              <Flex vertical gap={4}>
                {copy.texts.map((text) => (
                  <Checkbox key={text.workId} value={text.workId}>
                    {text.title}
                    <Typography.Text type="secondary">
                      {' '}
                      · {text.excerpt.slice(0, 30)}
                    </Typography.Text>
                  </Checkbox>
                ))}
              </Flex>
            </Checkbox.Group>
          )}
          <Typography.Text type="secondary">
            已选 {draft.workIds.length} 篇，每篇一集，按勾选顺序排列
          </Typography.Text>
        </Flex>
      )}
      {!copyOnly && (
        <Flex vertical gap={4}>
          <Typography.Text>每集旁白</Typography.Text>
          <Radio.Group
            aria-label="每集旁白"
            name="series-narration"
            value={draft.narration}
            onChange={(event) =>
              onChange({
                narration: event.target.value as SeriesDraft['narration'],
                episodeTitles: [],
              })
            }
            options={[
              { value: 'chapter', label: '章节原文' },
              { value: 'promo', label: '改写成推文（每集开始前生成）' },
            ]}
          />
        </Flex>
      )}
    </Flex>
  );
}
