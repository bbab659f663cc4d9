import { useEffect, useState } from 'react';
import {
  App,
  AutoComplete,
  Button,
  Card,
  Col,
  Empty,
  Flex,
  InputNumber,
  Radio,
  Row,
  Typography,
} from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import {
  localStore,
  type BookDetail,
  type GenerateTextBody,
  type TextKind,
  errorMessage,
} from '@kol/shared-sdk';
import { ResultActions } from '../components/result-actions';
import { LocalEngineNote } from '../components/local-engine-note';
import { ResultPanel } from '../components/result-panel';
import { usePlatforms } from '../features/book-source/api/use-platforms';
import { BookFinder } from '../features/book-source/components/book-finder';
import { ChapterPicker } from '../features/book-source/components/chapter-picker';
import { useGeneration } from '../hooks/use-generation';
import { readWritingDraft, writeWritingDraft } from '../lib/writing-draft';
import {
  MAX_LENGTH,
  MAX_TONE_LENGTH,
  MIN_LENGTH,
  TEXT_KIND_OPTIONS,
  TONE_OPTIONS,
} from '../lib/writing-options';

/** More chapters than this go through `generate_async` (polled) instead of the stream. */
export const ASYNC_CHAPTER_THRESHOLD = 5;
const DEFAULT_LENGTH = 300;

/** Everything the page keeps in `localStore.writingDraft` so a reload loses nothing. */
interface GenerateDraft {
  book: BookDetail | null;
  chapterIds: number[];
  kind: TextKind;
  length: number;
  tone: string;
  result: string;
}

function defaultTitleOf(book: BookDetail | null, chapterIds: number[]): string {
  if (!book) return '';
  const first = book.chapters.find((chapter) => chapterIds.includes(chapter.chapterId));
  const more = chapterIds.length > 1 ? ` 等 ${chapterIds.length} 章` : '';
  return `${book.title}${first ? ` ${first.title}` : ''}${more}`.slice(0, 100);
}

/** `/generate` 一键成文: a book's chapters in, promo copy, a narration script or spoken copy out. */
export function GeneratePage() {
  const { message } = App.useApp();
  const [draft] = useState(() => readWritingDraft<GenerateDraft>('generate'));
  const { platforms, error: platformsError, reload: reloadPlatforms } = usePlatforms();
  const [chosenPlatformId, setChosenPlatformId] = useState<number | null>(() =>
    localStore.get('lastPlatformId'),
  );
  const [book, setBook] = useState<BookDetail | null>(draft?.book ?? null);
  const [chapterIds, setChapterIds] = useState<number[]>(draft?.chapterIds ?? []);
  const [kind, setKind] = useState<TextKind>(draft?.kind ?? 'promo');
  const [length, setLength] = useState<number>(draft?.length ?? DEFAULT_LENGTH);
  const [tone, setTone] = useState(draft?.tone ?? '');
  const [result, setResult] = useState(draft?.result ?? '');
  const [touched, setTouched] = useState(false);

  const generation = useGeneration<{ page: 'generate' }>({
    slot: 'generate',
    onSettled: (outcome) => {
      // A failure with nothing written keeps the text that was there.
      if (outcome.text || outcome.status === 'succeeded') setResult(outcome.text);
      if (outcome.status === 'failed' && outcome.error) void message.error(outcome.error);
    },
  });

  // The remembered platform while it exists, else the built-in local library.
  const platformId =
    platforms.find((platform) => platform.id === chosenPlatformId)?.id ??
    platforms.find((platform) => platform.builtin)?.id ??
    platforms[0]?.id ??
    null;

  useEffect(() => {
    if (touched) {
      writeWritingDraft('generate', {
        book,
        chapterIds,
        kind,
        length,
        tone,
        result,
      } satisfies GenerateDraft);
    }
  }, [touched, book, chapterIds, kind, length, tone, result]);

  const change =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setTouched(true);
    };

  const choosePlatform = (id: number) => {
    setChosenPlatformId(id);
    localStore.set('lastPlatformId', id);
  };

  const chooseBook = (next: BookDetail) => {
    setBook(next);
    setChapterIds([]);
    setTouched(true);
    if (next.platformId !== platformId && platforms.some((p) => p.id === next.platformId)) {
      choosePlatform(next.platformId);
    }
  };

  const generate = () => {
    if (!book) {
      void message.warning('请先找到一本书');
      return;
    }
    if (chapterIds.length === 0) {
      void message.warning('请至少选择一个章节');
      return;
    }
    const body: GenerateTextBody = {
      bookId: book.bookId,
      chapterIds,
      kind,
      length,
      ...(tone.trim() ? { tone: tone.trim().slice(0, MAX_TONE_LENGTH) } : {}),
    };
    setTouched(true);
    void generation.start(
      body,
      { page: 'generate' },
      {
        async: chapterIds.length > ASYNC_CHAPTER_THRESHOLD,
      },
    );
  };

  const stop = () => {
    generation.stop().catch((error: unknown) => void message.error(errorMessage(error)));
  };

  const shownText = generation.running ? generation.text : result;

  return (
    <Flex vertical gap={16} style={{ maxWidth: 1400, width: '100%' }}>
      <Typography.Title level={1} style={{ margin: 0, fontSize: 24 }}>
        一键成文
      </Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={11}>
          <Flex vertical gap={16}>
            <Card title="选书">
              <BookFinder
                platforms={platforms}
                platformsError={platformsError}
                onReloadPlatforms={reloadPlatforms}
                platformId={platformId}
                onPlatformChange={choosePlatform}
                onBookChosen={chooseBook}
              />
            </Card>
            <Card
              title={
                book ? (
                  <span data-testid="chosen-book">
                    《{book.title}》{book.author ? ` ${book.author}` : ''}
                  </span>
                ) : (
                  '章节'
                )
              }
            >
              {book ? (
                <ChapterPicker book={book} selected={chapterIds} onChange={change(setChapterIds)} />
              ) : (
                <Empty description="先搜索或上传一本书，再选择章节" />
              )}
            </Card>
            <Card title="写什么">
              <Flex vertical gap={12}>
                <Flex vertical gap={4}>
                  <Typography.Text>文案类型</Typography.Text>
                  <Radio.Group
                    aria-label="文案类型"
                    optionType="button"
                    value={kind}
                    options={TEXT_KIND_OPTIONS}
                    onChange={(event) => change(setKind)(event.target.value as TextKind)}
                  />
                </Flex>
                <Flex gap={16} wrap>
                  <Flex vertical gap={4}>
                    <Typography.Text>字数</Typography.Text>
                    <InputNumber<number>
                      aria-label="字数"
                      data-testid="length"
                      min={MIN_LENGTH}
                      max={MAX_LENGTH}
                      step={50}
                      value={length}
                      onChange={(value) => change(setLength)(value ?? DEFAULT_LENGTH)}
                    />
                  </Flex>
                  <Flex vertical gap={4} style={{ flex: 1, minWidth: 200 }}>
                    <Typography.Text>风格</Typography.Text>
                    <AutoComplete
                      aria-label="风格"
                      data-testid="tone"
                      placeholder="选择或输入，如 悬疑紧张"
                      value={tone}
                      maxLength={MAX_TONE_LENGTH}
                      options={TONE_OPTIONS.map((value) => ({ value }))}
                      onChange={(value: string) => change(setTone)(value)}
                    />
                  </Flex>
                </Flex>
                <Button
                  type="primary"
                  size="large"
                  icon={<ThunderboltOutlined aria-hidden />}
                  loading={generation.running}
                  onClick={generate}
                  data-testid="generate"
                >
                  生成
                </Button>
                <LocalEngineNote />
                {chapterIds.length > ASYNC_CHAPTER_THRESHOLD && (
                  <Typography.Text type="secondary">
                    已选 {chapterIds.length} 章，将作为长文本任务在后台生成，完成后显示。
                  </Typography.Text>
                )}
              </Flex>
            </Card>
          </Flex>
        </Col>
        <Col xs={24} lg={13}>
          <Card title="结果">
            <ResultPanel
              text={shownText}
              onTextChange={change(setResult)}
              status={generation.status}
              engine={generation.engine}
              error={generation.error}
              onStop={stop}
              onRegenerate={generate}
              placeholder="生成的文案会在这里逐字出现，生成后可以直接修改。"
              actions={
                <ResultActions
                  key={generation.taskId ?? 'draft'}
                  text={shownText}
                  defaultTitle={defaultTitleOf(book, chapterIds)}
                  disabled={generation.running}
                />
              }
            />
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}
