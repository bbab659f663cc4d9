import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { searchBookById, searchBooks, getWorks, errorMessage } from '@kol/shared-sdk';
import { usePlatforms } from '../../../flow-kit/text-source/api/use-platforms';
import { WORKS_KEY } from '../../../hooks/work-queries';

/** The books of the first platform (the local library) whose title has `name` (all when empty). */
export function useBookSearch(name: string) {
  const { platforms, error: platformsError } = usePlatforms();
  const platformId = platforms[0]?.id ?? null;
  const query = useQuery({
    queryKey: ['series-books', platformId, name],
    queryFn: ({ signal }) =>
      searchBooks({ bookName: name, platformId: platformId ?? 1 }, { signal }),
    enabled: platformId !== null,
    placeholderData: keepPreviousData,
  });
  return {
    books: query.data ?? [],
    loading: query.isFetching,
    error: platformsError ?? (query.error ? errorMessage(query.error) : null),
  };
}

/** A book's chapters, for the chosen range (kept in the draft by id, so a reload finds it). */
export function useBookDetail(bookId: number | null) {
  const query = useQuery({
    queryKey: ['series-book', bookId],
    queryFn: ({ signal }) => searchBookById({ cbid: String(bookId) }, { signal }),
    enabled: bookId !== null,
  });
  return {
    book: query.data ?? null,
    loading: query.isLoading && bookId !== null,
    error: query.error ? errorMessage(query.error) : null,
  };
}

/** The user's texts (My copy), the newest 50: a series of texts takes up to 50 of them. */
export function useCopyTexts() {
  const request = { withText: true, pageIndex: 1, pageSize: 50 };
  const query = useQuery({
    queryKey: [...WORKS_KEY, request],
    queryFn: ({ signal }) => getWorks(request, { signal }),
  });
  return {
    texts: query.data?.items ?? [],
    loading: query.isLoading,
    error: query.error ? errorMessage(query.error) : null,
  };
}
