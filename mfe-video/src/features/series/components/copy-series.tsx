import { useState } from 'react';
import { Alert, App, Button, Flex, List, Progress, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@kol/shared-sdk/router';
import {
  getGenResult,
  saveText,
  splitTweets,
  submitTweetsTask,
  ProjectType,
  type BookDetail,
  type TextResult,
  errorMessage,
} from '@kol/shared-sdk';
import { useTask } from '@kol/shared-sdk/state';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import { WORKS_KEY } from '../../../hooks/work-queries';
import type { SeriesDraft } from '../series-draft';

interface CopySeriesProps {
  book: BookDetail;
  draft: SeriesDraft;
  onChange: (patch: Partial<SeriesDraft>) => void;
}

const writingKey = (taskId: string) => ['writing-task', taskId] as const;
const running = (result: TextResult) => result.state === 'queued' || result.state === 'running';

/**
 * A series of copy only: one promotional text per chapter, written by one tweets task
 * (`submit_tweets_task`, followed with `gen_result`), then each saved into My copy. The task's id
 * and the saved texts are kept in the draft, so a reload follows the same task and saves nothing
 * twice (each save carries a key of the task and the chapter).
 */
export function CopySeries({ book, draft, onChange }: CopySeriesProps) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const chapters = book.chapters.slice(draft.fromChapter - 1, draft.toChapter);
  const taskId = draft.copyTaskId ?? null;
  const task = useTask<TextResult>({
    queryKey: writingKey(taskId ?? ''),
    fetch: (signal) => getGenResult({ taskId: taskId ?? '' }, { signal }),
    ended: (result) => !running(result),
    intervalMs: 1500,
    enabled: taskId !== null,
  });
  const result = task.data;
  const written = result ? (result.text.match(/【[^\n]*】\n/g) ?? []).length : 0;

  const start = useSingleFlight(async () => {
    setError(null);
    if (chapters.length === 0) {
      void message.warning('请先选择章节范围');
      return;
    }
    try {
      const answer = await submitTweetsTask({
        bookId: book.bookId,
        chapterIds: chapters.map((chapter) => chapter.chapterId),
        kind: 'promo',
      });
      onChange({ copyTaskId: answer.taskId, copySaved: [] });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  });

  const save = useSingleFlight(async () => {
    if (!result || !taskId) return;
    const texts = splitTweets(
      result.text,
      chapters.map((chapter) => chapter.title),
    );
    if (!texts) {
      setError('推文没有按章节写完整，无法分开保存：请重新生成');
      return;
    }
    const saved: number[] = [];
    try {
      for (const [i, text] of texts.entries()) {
        const chapter = chapters[i];
        if (!chapter || !text) continue;
        const made = await saveText(
          { type: ProjectType.comics, title: `${book.title} ${chapter.title}`.slice(0, 100), text },
          { idempotencyKey: `${taskId}.${i}` },
        );
        saved.push(made.workId);
      }
      onChange({ copySaved: saved });
      void client.invalidateQueries({ queryKey: WORKS_KEY });
      void message.success(`已存入我的文案：${saved.length} 篇`);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  });

  return (
    <Flex vertical gap={12}>
      <Typography.Text>
        {`《${book.title}》${chapters[0]?.title ?? ''} 至 ${chapters.at(-1)?.title ?? ''}，每章写一篇推文，存入我的文案（不使用视频生成次数）。`}
      </Typography.Text>
      {error && <Alert type="error" showIcon title={error} />}
      {result?.state === 'failed' && (
        <Alert type="error" showIcon title={`推文生成失败：${result.error ?? '未知原因'}`} />
      )}
      {taskId === null || result?.state === 'failed' || result?.state === 'cancelled' ? (
        <Flex justify="end">
          <Button type="primary" loading={start.busy} onClick={() => void start.run()}>
            生成每章推文
          </Button>
        </Flex>
      ) : result && running(result) ? (
        <Progress
          aria-label="推文进度"
          percent={Math.round((Math.max(0, written - 1) / chapters.length) * 100)}
          format={() => `${Math.max(0, written - 1)}/${chapters.length} 章`}
        />
      ) : result?.state === 'succeeded' && (draft.copySaved?.length ?? 0) === 0 ? (
        <Flex justify="space-between" align="center" gap={8} wrap>
          <Typography.Text>{`推文已写好（${result.engine}），共 ${chapters.length} 章`}</Typography.Text>
          <Button type="primary" loading={save.busy} onClick={() => void save.run()}>
            分章存入我的文案
          </Button>
        </Flex>
      ) : null}
      {(draft.copySaved?.length ?? 0) > 0 && (
        <List
          size="small"
          header={`已存入我的文案：${draft.copySaved?.length ?? 0} 篇`}
          dataSource={chapters.slice(0, draft.copySaved?.length ?? 0)}
          renderItem={(chapter) => <List.Item>{`${book.title} ${chapter.title}`}</List.Item>}
          footer={<Link to="/work">去我的文案查看</Link>}
        />
      )}
    </Flex>
  );
}
