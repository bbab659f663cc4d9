import { useState } from 'react';
import { App, Button, Flex, Input, Segmented, Select, Typography } from 'antd';
import {
  searchBookById,
  searchBooks,
  type BookDetail,
  type BookPlatform,
  type BookSummary,
  errorMessage,
} from '@kol/shared-sdk';
import { BookUpload } from './book-upload';

type SearchMode = 'name' | 'id';

/** Books found: by a title, or the whole catalogue (an empty name) to pick from. */
interface Results {
  books: BookSummary[];
  catalogue: boolean;
}

interface BookFinderProps {
  platforms: BookPlatform[];
  platformsError: string | null;
  onReloadPlatforms: () => void;
  platformId: number | null;
  onPlatformChange: (platformId: number) => void;
  /** A book with its chapters, found, picked from the results, or uploaded. */
  onBookChosen: (book: BookDetail) => void;
}

/**
 * Platform, search by name (`search`) or by id (`search_cbid`), and upload to the local library.
 * An empty name lists the platform's books: a creator who knows no title still finds one.
 */
export function BookFinder({
  platforms,
  platformsError,
  onReloadPlatforms,
  platformId,
  onPlatformChange,
  onBookChosen,
}: BookFinderProps) {
  const { message } = App.useApp();
  const [mode, setMode] = useState<SearchMode>('name');
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Results | null>(null);
  const [searching, setSearching] = useState(false);
  const [openingBookId, setOpeningBookId] = useState<number | null>(null);

  const search = async (value: string) => {
    const text = value.trim();
    if (!text && mode === 'id') {
      void message.warning('请输入书籍编号');
      return;
    }
    if (platformId === null) {
      void message.warning('请先选择平台');
      return;
    }
    setSearching(true);
    try {
      if (mode === 'name') {
        const books = await searchBooks({ bookName: text, platformId });
        setResults({ books, catalogue: !text });
      } else {
        setResults(null);
        onBookChosen(await searchBookById({ cbid: text, platformId }));
      }
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setSearching(false);
    }
  };

  // A search answer has no chapters: the book's id fetches it whole.
  const open = async (book: BookSummary) => {
    setOpeningBookId(book.bookId);
    try {
      onBookChosen(
        await searchBookById({ cbid: String(book.bookId), platformId: book.platformId }),
      );
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setOpeningBookId(null);
    }
  };

  return (
    <Flex vertical gap={12}>
      <Flex gap={8} wrap align="center">
        <Typography.Text>平台</Typography.Text>
        <Select
          aria-label="平台"
          data-testid="platform-select"
          style={{ minWidth: 180 }}
          loading={platforms.length === 0 && !platformsError}
          placeholder="选择书籍平台"
          value={platformId ?? undefined}
          options={platforms.map((platform) => ({ value: platform.id, label: platform.name }))}
          onChange={(value: number) => {
            setResults(null);
            onPlatformChange(value);
          }}
        />
        {platformsError && (
          <>
            <Typography.Text type="danger">{platformsError}</Typography.Text>
            <Button size="small" onClick={onReloadPlatforms}>
              重新加载
            </Button>
          </>
        )}
        <BookUpload
          onUploaded={(book) => {
            setResults(null);
            onBookChosen(book);
          }}
        />
      </Flex>
      <Segmented<SearchMode>
        data-testid="search-mode"
        value={mode}
        onChange={setMode}
        options={[
          { value: 'name', label: '按书名' },
          { value: 'id', label: '按书籍编号' },
        ]}
      />
      <Input.Search
        aria-label="搜索书籍"
        data-testid="book-search"
        placeholder={
          platformId === null
            ? '正在加载书籍平台…'
            : mode === 'name'
              ? '输入书名，留空搜索列出书库中的书'
              : '输入书籍编号（cbid）'
        }
        enterButton="搜索"
        // Closed until a platform is known: a search typed in the first second after opening the
        // page was otherwise answered 请先选择平台 and dropped.
        disabled={platformId === null}
        loading={searching}
        value={query}
        maxLength={100}
        onChange={(event) => setQuery(event.target.value)}
        onSearch={(value) => void search(value)}
      />
      {results &&
        (results.books.length === 0 ? (
          <Typography.Text type="secondary" data-testid="book-results">
            {results.catalogue
              ? '书库里还没有书，上传一本到本地书库'
              : '没有找到这本书，换个书名试试，或上传到本地书库'}
          </Typography.Text>
        ) : (
          <Flex vertical gap={8} data-testid="book-results">
            {results.catalogue && (
              <Typography.Text type="secondary">
                {/* No count: the server answers at most 50, so a count could mislead. */}
                书库中的书：选择一本，或输入书名搜索
              </Typography.Text>
            )}
            {results.books.map((book) => (
              <Flex
                key={book.bookId}
                justify="space-between"
                align="center"
                gap={8}
                data-testid={`book-result-${book.bookId}`}
              >
                <Flex vertical style={{ minWidth: 0 }}>
                  <Typography.Text strong>{book.title}</Typography.Text>
                  <Typography.Text type="secondary" ellipsis>
                    {book.author || '佚名'} · {book.chapterCount} 章
                    {book.intro ? ` · ${book.intro}` : ''}
                  </Typography.Text>
                </Flex>
                <Button
                  size="small"
                  // antd spaces two CJK characters apart (「选 择」), and the name must hold the
                  // text shown (the accessibility audit's label-content-name-mismatch).
                  autoInsertSpace={false}
                  aria-label={`选择 ${book.title}`}
                  loading={openingBookId === book.bookId}
                  onClick={() => void open(book)}
                >
                  选择
                </Button>
              </Flex>
            ))}
          </Flex>
        ))}
    </Flex>
  );
}
