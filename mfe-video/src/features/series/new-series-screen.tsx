import { useState } from 'react';
import { Alert, App, Button, Card, Flex, Input, Radio, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  createSeries,
  idempotencyKeyFor,
  newIdempotencyKey,
  planSeries,
  SERIES_TYPES,
  canUseProjectType,
  SERIES_UNSUPPORTED_REASON,
  ProjectType,
  videoTypeLabel,
  type SeriesPlan,
  errorMessage,
} from '@kol/shared-sdk';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { useAtomValue } from 'jotai';
import { PageFrame } from '../../components/page-frame';
import { LookAndSoundSection } from '../../flow-kit/video-settings/components/look-and-sound-section';
import { StylePicker } from '../../flow-kit/video-settings/components/style-picker';
import { usePageNavigate } from '../../lib/phone';
import { SERIES_LIST_KEY, seriesKey } from './api/use-series';
import { useBookDetail } from './api/use-books';
import { CopySeries } from './components/copy-series';
import { PlanPreview } from './components/plan-preview';
import { SeriesList } from './components/series-list';
import { SeriesSource } from './components/series-source';
import { EMPTY_SERIES_DRAFT, planBodyOf, seriesSession, type SeriesDraft } from './series-draft';

const PICTURED: ReadonlySet<number> = new Set([0, 5]);
const PLAN_FIELDS: Array<keyof SeriesDraft> = [
  'output',
  'type',
  'source',
  'bookId',
  'fromChapter',
  'toChapter',
  'workIds',
  'narration',
];

/**
 * `/video/series` 整季生成: the creator's series, and a new one: the source (a book's chapter
 * range or texts of My copy), the video type and one set of settings for every episode, then
 * 预估 (the server's plan: episodes, counts, time) with the titles to edit, then 创建系列 (a
 * draft: its cast is reviewed on the series' page before anything is spent).
 */
export function NewSeriesScreen() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const navigate = usePageNavigate();
  const [draft, setDraft] = useState<SeriesDraft>(
    () => seriesSession.get('seriesDraft') ?? EMPTY_SERIES_DRAFT,
  );
  const user = useAtomValue(currentUserAtom);
  const allowed = SERIES_TYPES.filter((type) => canUseProjectType(user, type));
  const [plan, setPlan] = useState<SeriesPlan | null>(null);
  const [planError, setPlanError] = useState<string | null>(null);

  const change = (patch: Partial<SeriesDraft>) => {
    // Another source, type or narration is another series: planned again, with a key of its own.
    const replanned = PLAN_FIELDS.some((field) => field in patch);
    setDraft((current) => {
      const next = { ...current, ...patch };
      if (replanned) {
        next.episodeTitles = [];
        delete next.createKey;
        // Another range is another copy task (a finished one's texts stay in My copy).
        if (!('copyTaskId' in patch)) {
          delete next.copyTaskId;
          delete next.copySaved;
        }
      }
      seriesSession.set('seriesDraft', next);
      return next;
    });
    if (replanned) setPlan(null);
  };

  const body = planBodyOf(draft);
  const copyOnly = draft.output === 'copy';
  const book = useBookDetail(copyOnly ? draft.bookId : null);

  const estimate = useSingleFlight(async () => {
    if (!body) {
      void message.warning(draft.source === 'book' ? '请先选择一本书' : '请先勾选文案');
      return;
    }
    setPlanError(null);
    try {
      const answer = await planSeries(body);
      setPlan(answer);
      change({
        title: draft.title || answer.title,
        episodeTitles: answer.episodes.map((e, i) => draft.episodeTitles[i] ?? e.title),
      });
    } catch (error) {
      setPlan(null);
      setPlanError(errorMessage(error));
    }
  });

  const create = useSingleFlight(async () => {
    if (!body || !plan) return;
    const titles = plan.episodes.map((e, i) => (draft.episodeTitles[i] ?? e.title).trim());
    const blank = titles.findIndex((title) => !title);
    if (blank >= 0) {
      void message.warning(`第${blank + 1}集的标题是空的`);
      return;
    }
    if (!draft.title.trim()) {
      void message.warning('请填写系列名称');
      return;
    }
    const createKey = draft.createKey ?? newIdempotencyKey();
    if (!draft.createKey) change({ createKey });
    const input = {
      ...body,
      title: draft.title.trim(),
      episodeTitles: titles,
      settings: draft.settings,
    };
    try {
      const series = await createSeries(input, {
        idempotencyKey: idempotencyKeyFor(createKey, input),
      });
      client.setQueryData(seriesKey(series.seriesId), series);
      void client.invalidateQueries({ queryKey: SERIES_LIST_KEY });
      seriesSession.remove('seriesDraft');
      navigate(`/video/series/${series.seriesId}`);
    } catch (error) {
      void message.error(errorMessage(error));
    }
  });

  return (
    <PageFrame title="整季生成">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        一本书的连续章节，一次做成一整季视频：同一套角色、同一套设置，每集都是我的作品里的一个普通作品。创建后先确认角色，开始时为每集预留一次生成次数；生成期间其他创作者的视频不会被挤占。
      </Typography.Paragraph>
      <SeriesList />
      <Card title="新建系列" size="small">
        <Flex vertical gap={16}>
          <Radio.Group
            aria-label="生成内容"
            name="series-output"
            optionType="button"
            value={copyOnly ? 'copy' : 'video'}
            onChange={(event) =>
              change({ output: event.target.value as SeriesDraft['output'], source: 'book' })
            }
            options={[
              { value: 'video', label: '每章一集视频' },
              { value: 'copy', label: '仅文案（每章一篇推文）' },
            ]}
          />
          {copyOnly ? (
            <>
              <SeriesSource draft={draft} onChange={change} copyOnly />
              {book.book && <CopySeries book={book.book} draft={draft} onChange={change} />}
            </>
          ) : (
            <>
              <Flex vertical gap={8}>
                <Typography.Text strong>视频类型</Typography.Text>
                <Radio.Group
                  aria-label="视频类型"
                  name="series-type"
                  value={draft.type}
                  onChange={(event) => change({ type: event.target.value as SeriesDraft['type'] })}
                  options={SERIES_TYPES.map((type) => ({
                    value: type,
                    label: videoTypeLabel(type),
                    disabled: !allowed.includes(type),
                  }))}
                />
                <Typography.Text type="secondary">
                  {SERIES_UNSUPPORTED_REASON[ProjectType.animeShorts]}
                </Typography.Text>
              </Flex>
              <SeriesSource draft={draft} onChange={change} />
              {PICTURED.has(draft.type) && (
                <Card title="画风" size="small">
                  <StylePicker
                    value={draft.settings.imageStyleId ?? 0}
                    onChange={(imageStyleId) =>
                      change({ settings: { ...draft.settings, imageStyleId } })
                    }
                  />
                </Card>
              )}
              <LookAndSoundSection
                name="series-aspect"
                settings={draft.settings}
                overseas={draft.type === 5}
                sampleText="这是这一季每一集使用的配音。"
                onChange={(patch) => change({ settings: { ...draft.settings, ...patch } })}
              />
              <Flex gap={8} align="center">
                <Button
                  loading={estimate.busy}
                  onClick={() => void estimate.run()}
                  disabled={!body}
                >
                  预估分集与次数
                </Button>
                {!body && (
                  <Typography.Text type="secondary">
                    {draft.source === 'book' ? '先选择一本书和章节范围' : '先勾选文案'}
                  </Typography.Text>
                )}
              </Flex>
              {planError && <Alert type="error" showIcon title={planError} />}
              {plan && (
                <>
                  <Flex gap={8} align="center" wrap>
                    <Typography.Text>系列名称</Typography.Text>
                    <Input
                      aria-label="系列名称"
                      style={{ maxWidth: 360 }}
                      maxLength={60}
                      value={draft.title}
                      onChange={(event) => change({ title: event.target.value })}
                    />
                  </Flex>
                  <PlanPreview
                    plan={plan}
                    titles={draft.episodeTitles}
                    onTitles={(episodeTitles) => change({ episodeTitles })}
                  />
                  <Flex justify="end">
                    <Button type="primary" loading={create.busy} onClick={() => void create.run()}>
                      创建系列，确认角色
                    </Button>
                  </Flex>
                </>
              )}
            </>
          )}
        </Flex>
      </Card>
    </PageFrame>
  );
}
