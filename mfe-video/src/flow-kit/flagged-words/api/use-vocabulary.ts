import { useQuery } from '@tanstack/react-query';
import { getVocabulary, type VocabularyItem } from '@kol/shared-sdk';
import { useListStatus } from '../../../hooks/use-list-status';

/** The query key of the flagged words: one list for the caption and script pages. */
export const VOCABULARY_KEY = ['vocabulary'] as const;

const NO_WORDS: VocabularyItem[] = [];

/** The words a platform may flag, each with its safer wording (`get_vocabulary`). */
export function useVocabulary() {
  const query = useQuery({
    queryKey: VOCABULARY_KEY,
    queryFn: ({ signal }) => getVocabulary(undefined, { signal }),
  });
  const { error } = useListStatus(query);
  return { vocabulary: query.data ?? NO_WORDS, error };
}
