import { useMemo } from 'react';
import { useParams, useSearchParams } from '@kol/shared-sdk/router';
import { ProjectType } from '@kol/shared-sdk';
import { comicFlowStore, comicTypeOf, flowQuery } from './comic-flow';

/**
 * Where the creator is in the comic clip flow: the type (`?videoType=`), the work (`?workId=`,
 * or the `:id` of `/video/promptWord/:id`) and the session values of that type's flow.
 */
export function useComicFlow() {
  const [params] = useSearchParams();
  const { id } = useParams();
  const type = comicTypeOf(params);
  const overseas = type === ProjectType.comicsOverseas;
  const fromPath = Number(id);
  const fromQuery = Number(params.get('workId'));
  const workId =
    Number.isInteger(fromPath) && fromPath > 0
      ? fromPath
      : Number.isInteger(fromQuery) && fromQuery > 0
        ? fromQuery
        : null;
  const store = useMemo(() => comicFlowStore(overseas), [overseas]);
  return { type, overseas, workId, store, query: flowQuery(type, workId) };
}
