import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { previewDedup, type DedupPresets, type DedupPreview, errorMessage } from '@kol/shared-sdk';

/** Wait after the last change before asking: a slider dragged asks once, not per step. */
const SETTLE_MS = 500;

type PreviewInputs = [clipUrl: string, presets: DedupPresets, aspect: '9:16' | '16:9'];

/**
 * The before / after frame of `clipUrl` for the current presets (`dedup_preview`), asked again
 * each time they settle. Answers the last frames while the next ones are made (and when making
 * them failed).
 */
export function useDedupPreview(
  clipUrl: string | null,
  presets: DedupPresets,
  aspect: '9:16' | '16:9',
) {
  // The inputs' value: a new object with the same presets asks nothing.
  const key = clipUrl ? JSON.stringify([clipUrl, presets, aspect] satisfies PreviewInputs) : null;
  const [settled, setSettled] = useState<string | null>(null);
  useEffect(() => {
    // A debounce, not a poller: the inputs are asked for once they stop changing.
    const timer = setTimeout(() => setSettled(key), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [key]);

  const query = useQuery({
    queryKey: ['dedup-preview', settled],
    queryFn: ({ signal }) => {
      const [sourceVideoUrl, asked, ratio] = JSON.parse(settled as string) as PreviewInputs;
      return previewDedup({ sourceVideoUrl, presets: asked, aspect: ratio }, { signal });
    },
    enabled: settled !== null,
  });

  // The last frames made, kept on screen while others are made or could not be.
  const [shown, setShown] = useState<DedupPreview | null>(null);
  if (query.data && query.data !== shown) setShown(query.data);

  // Without a clip there is nothing to show, whatever was previewed before.
  if (!clipUrl) return { preview: null, loading: false, error: null };
  return {
    preview: query.data ?? shown,
    loading: query.isFetching,
    error: query.error ? `预览失败：${errorMessage(query.error)}` : null,
  };
}
