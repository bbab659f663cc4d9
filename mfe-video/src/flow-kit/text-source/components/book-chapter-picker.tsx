import { useState } from 'react';
import { Alert, App, Button, Flex, Input, Select, Typography } from 'antd';
import {
  getChapterContent,
  searchBookById,
  searchBooks,
  type BookDetail,
  type BookSummary,
  errorMessage,
} from '@kol/shared-sdk';
import { usePlatforms } from '../api/use-platforms';

interface BookChapterPickerProps {
  /** The chapter's text, a title for the work, and the chapter id. */
  onPick: (text: string, title: string, chapterId: number) => void;
}

/**
 * 书籍章节: a platform, a book found by name (`search`, then `search_cbid` for its chapters), and
 * one chapter whose text (`get_chapter_content`) becomes the video's text. An empty name lists
 * the platform's books: a creator who knows no title still finds one.
 */
export function BookChapterPicker({ onPick }: BookChapterPickerProps) {
  const { message } = App.useApp();
  const { platforms, error: platformsError, reload } = usePlatforms();
  const [platformId, setPlatformId] = useState<number | null>(null);
  const [results, setResults] = useState<BookSummary[] | null>(null);
  // Whether the results are the whole catalogue (an empty name) rather than a title's matches.
  const [catalogue, setCatalogue] = useState(false);
  const [book, setBook] = useState<BookDetail | null>(null);
  const [chapterId, setChapterId] = useState<number | null>(null);
  const [busy, setBusy] = useState<'search' | 'book' | 'chapter' | null>(null);
  const platform = platformId ?? platforms[0]?.id ?? null;

  const search = async (value: string) => {
    const name = value.trim();
    if (platform === null) {
      void message.warning('书籍平台还没有加载，请稍后再试');
      return;
    }
    setBusy('search');
    try {
      setResults(await searchBooks({ bookName: name, platformId: platform }));
      setCatalogue(!name);
      setBook(null);
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const open = async (summary: BookSummary) => {
    setBusy('book');
    try {
      const detail = await searchBookById({
        cbid: String(summary.bookId),
        platformId: summary.platformId,
      });
      setBook(detail);
      setChapterId(detail.chapters[0]?.chapterId ?? null);
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const take = async () => {
    if (!book || chapterId === null) {
      void message.warning('请先选择章节');
      return;
    }
    setBusy('chapter');
    try {
      const chapter = await getChapterContent({ bookId: book.bookId, chapterId });
      if (!chapter.content.trim()) {
        void message.warning('这一章没有正文，请换一章');
        return;
      }
      onPick(chapter.content, `${book.title} ${chapter.title}`.slice(0, 100), chapterId);
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Flex vertical gap={8}>
      {platformsError && (
        <Alert
          type="error"
          showIcon
          title={`书籍平台加载失败：${platformsError}`}
          action={
            <Button size="small" onClick={reload}>
              重新加载
            </Button>
          }
        />
      )}
      <Select
        aria-label="书籍平台"
        placeholder="选择书籍平台"
        value={platform ?? undefined}
        options={platforms.map((item) => ({ value: item.id, label: item.name }))}
        onChange={(value: number) => {
          setPlatformId(value);
          setResults(null);
          setBook(null);
        }}
      />
      <Input.Search
        aria-label="搜索书名"
        placeholder={platform === null ? '正在加载书籍平台…' : '输入书名，留空搜索列出书库中的书'}
        enterButton="搜索"
        // Closed until a platform is known, so a search typed at once is not dropped.
        disabled={platform === null}
        maxLength={100}
        loading={busy === 'search'}
        onSearch={(value) => void search(value)}
      />
      {results && !book && (
        <Flex vertical gap={6}>
          {results.length === 0 ? (
            <Typography.Text type="secondary">
              {catalogue ? '书库里还没有书' : '没有找到这本书，换个书名试试'}
            </Typography.Text>
          ) : (
            <>
              {catalogue && (
                // No count: the server answers at most 50, so a count could mislead.
                <Typography.Text type="secondary">
                  书库中的书：选择一本，或输入书名搜索
                </Typography.Text>
              )}
              {results.map((item) => (
                <Flex key={item.bookId} justify="space-between" align="center" gap={8}>
                  <Typography.Text ellipsis>
                    {item.title}（{item.author || '佚名'} · {item.chapterCount} 章）
                  </Typography.Text>
                  <Button
                    autoInsertSpace={false}
                    size="small"
                    aria-label={`选择书籍 ${item.title}`}
                    loading={busy === 'book'}
                    onClick={() => void open(item)}
                  >
                    选择
                  </Button>
                </Flex>
              ))}
            </>
          )}
        </Flex>
      )}
      {book && (
        <Flex gap={8} wrap align="center">
          <Typography.Text strong>{book.title}</Typography.Text>
          <Select
            aria-label="章节"
            style={{ minWidth: 220, flex: 1 }}
            value={chapterId ?? undefined}
            onChange={(value: number) => setChapterId(value)}
            options={book.chapters.map((chapter) => ({
              value: chapter.chapterId,
              label: `${chapter.title}（${chapter.wordCount} 字）`,
            }))}
          />
          <Button type="primary" loading={busy === 'chapter'} onClick={() => void take()}>
            使用本章
          </Button>
          <Button onClick={() => setBook(null)}>换一本书</Button>
        </Flex>
      )}
    </Flex>
  );
}
