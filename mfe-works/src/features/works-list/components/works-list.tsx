import { useEffect, useState } from 'react';
import { Alert, Button, Flex, Pagination, Segmented, Spin, Tabs, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  CreationFlag,
  isOverseasProjectType,
  remainingGenerations,
  type ProjectType,
  type UsageLimits,
  type WorkSummary,
} from '@kol/shared-sdk';
import { useUsageLimits } from '@kol/shared-sdk/state';
import { JianyingDraftDialog } from '@kol/shared-sdk/ui';
import { WORKS_KEY } from '../../../lib/query-keys';
import type { WorkList } from '../../../lib/work-lists';
import { WORKS_PAGE_SIZE, useTypeWorks } from '../api/use-type-works';
import { quotaLabelOf, useWorkActions } from '../api/use-work-actions';
import { useWorksQuery } from '../hooks/use-works-query';
import { PlayModal } from './play-modal';
import { RenameModal } from './rename-modal';
import { WorkCard } from './work-card';
import { WorksEmpty } from './works-empty';
import { SeriesFilter } from './series-filter';
import { WorksSearch } from './works-search';

const TABS = [
  { key: String(CreationFlag.draft), label: '草稿' },
  { key: String(CreationFlag.creation), label: '作品' },
];

/** Why a type's works cannot be regenerated now, once the counts are known. */
function regenerateBlocked(limits: UsageLimits | null, type: number): string | null {
  if (!limits || remainingGenerations(limits, type as ProjectType) > 0) return null;
  return `「${quotaLabelOf(type)}」的生成次数已用完`;
}

interface WorksListProps {
  list: WorkList;
  /** How often a page with a work being made is fetched again (tests pass a short one). */
  pollIntervalMs?: number;
}

/**
 * One video type's works: 草稿 and 作品 tabs, a 国内/海外 switch for a list of two types, search
 * by title, a page of cards and the dialogs their actions open. What is shown lives in the address.
 */
export function WorksList({ list, pollIntervalMs }: WorksListProps) {
  const { query, setFlag, setPage, setKeyword, setType, setSeries } = useWorksQuery(list);
  const works = useTypeWorks(query, pollIntervalMs);
  const client = useQueryClient();
  // Fetched on mount, so 重新生成 can be disabled when no count is left; a failure leaves the
  // counts unknown, 重新生成 stays enabled and asks again when clicked.
  const usage = useUsageLimits();
  const [playing, setPlaying] = useState<WorkSummary | null>(null);
  const [renaming, setRenaming] = useState<WorkSummary | null>(null);
  // The work keeps its place while the dialog closes, so its link does not change under the fade.
  const [drafting, setDrafting] = useState({ workId: 0, open: false });

  const actions = useWorkActions({
    // Asked again right before a confirmation states them.
    refreshLimits: async () => {
      const answer = await usage.reload();
      if (!answer.isSuccess) throw answer.error;
      return answer.data;
    },
    onChanged: works.reload,
    onLeft: () => {
      // The last card of a later page left: show the page before it, fetched anew.
      if (works.items.length === 1 && query.pageIndex > 1) {
        void client.invalidateQueries({ queryKey: WORKS_KEY, refetchType: 'none' });
        setPage(query.pageIndex - 1);
      } else works.reload();
    },
  });

  // A page past the end (reloaded after its works left elsewhere, or an edited address): the
  // last page that has works, rather than an empty list that says there are none.
  const pastEnd = !works.loading && !works.error && works.items.length === 0 && query.pageIndex > 1;
  const lastPage = Math.max(1, Math.ceil(works.total / WORKS_PAGE_SIZE));
  useEffect(() => {
    if (pastEnd) setPage(lastPage);
  }, [pastEnd, lastPage, setPage]);

  // Beside the search, not in the tabs' bar: a control inside the tab list breaks what a screen
  // reader expects of it (only tabs), the accessibility audit's one critical finding.
  const typeSwitch =
    list.types.length > 1 ? (
      <Segmented<ProjectType>
        aria-label="国内或海外"
        data-testid="works-type-switch"
        value={query.type}
        onChange={setType}
        options={list.types.map((type) => ({
          value: type,
          label: isOverseasProjectType(type) ? '海外' : '国内',
        }))}
      />
    ) : null;

  return (
    <Flex vertical gap={12} style={{ maxWidth: 1200, width: '100%' }}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Title level={1} style={{ margin: 0, fontSize: 24 }}>
          {list.title}
        </Typography.Title>
        <Flex gap={12} align="center" wrap>
          {typeSwitch}
          <SeriesFilter types={list.types} value={query.seriesId} onChange={setSeries} />
          <WorksSearch keyword={query.keyword} onSearch={setKeyword} />
        </Flex>
      </Flex>
      {query.seriesId === null && (
        <Tabs
          activeKey={String(query.flag)}
          items={TABS}
          onChange={(key) => setFlag(Number(key) as CreationFlag)}
          style={{ marginBottom: -12 }}
        />
      )}
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
      {works.loading || pastEnd ? (
        <Spin description="加载中" style={{ padding: 48 }} />
      ) : works.items.length === 0 ? (
        // A failed first load says so above; "nothing here" would not be true.
        !works.error && (
          <WorksEmpty
            list={list}
            flag={query.flag}
            keyword={query.keyword}
            onClearSearch={() => setKeyword('')}
          />
        )
      ) : (
        <Spin spinning={works.refreshing} delay={300}>
          <div
            data-testid="works-grid"
            style={{
              display: 'grid',
              gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
              gap: 16,
            }}
          >
            {works.items.map((work) => (
              <WorkCard
                key={work.workId}
                work={work}
                regenerateBlocked={regenerateBlocked(usage.limits, work.type)}
                onPlay={() => setPlaying(work)}
                onExportDraft={() => setDrafting({ workId: work.workId, open: true })}
                onRegenerate={() => void actions.regenerate(work)}
                onRename={() => setRenaming(work)}
                onMove={() => void actions.move(work)}
                onRemove={() => void actions.remove(work)}
              />
            ))}
          </div>
        </Spin>
      )}
      {works.total > WORKS_PAGE_SIZE && works.items.length > 0 && (
        <Pagination
          data-testid="works-pagination"
          current={query.pageIndex}
          pageSize={WORKS_PAGE_SIZE}
          total={works.total}
          showSizeChanger={false}
          showTotal={(total) => `共 ${total} 个`}
          onChange={setPage}
          style={{ alignSelf: 'center' }}
        />
      )}
      <PlayModal work={playing} onClose={() => setPlaying(null)} />
      <RenameModal work={renaming} onSave={actions.rename} onClose={() => setRenaming(null)} />
      {/* The work's newest finished video (no task named), as its exportRefusal speaks of. */}
      <JianyingDraftDialog
        workId={drafting.workId}
        open={drafting.open}
        onClose={() => setDrafting((current) => ({ ...current, open: false }))}
      />
    </Flex>
  );
}
