import { useAtomValue } from 'jotai';
import { TemplateId, canOpenConvertWorks, hasTemplate } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import {
  NeedsFunctionalLevel,
  NoTemplatePermission,
} from '../features/works-list/components/access-denied';
import { WorksList } from '../features/works-list/components/works-list';
import type { WorkList } from '../lib/work-lists';

interface WorksListPageProps {
  list: WorkList;
  /** How often a page with a work being made is fetched again (tests pass a short one). */
  pollIntervalMs?: number;
}

/**
 * `/work/comics`, `/work/anime`, … : one video type's works. The page checks its own gates even
 * though the host checks them too, so it never lists (nor calls get_works) for a user who may not
 * see it: the list's template id (spec section 5), and for reverse videos a functional level
 * above 0 (spec section 6).
 */
export function WorksListPage({ list, pollIntervalMs }: WorksListPageProps) {
  const user = useAtomValue(currentUserAtom);
  if (!hasTemplate(user, list.templateId)) return <NoTemplatePermission title={list.title} />;
  if (list.templateId === TemplateId.convert && !canOpenConvertWorks(user)) {
    return <NeedsFunctionalLevel title={list.title} />;
  }
  return <WorksList list={list} pollIntervalMs={pollIntervalMs} />;
}
