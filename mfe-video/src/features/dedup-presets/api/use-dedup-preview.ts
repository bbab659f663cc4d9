import { useEffect, useState } from 'react';
import { previewDedup, type DedupPresets, type DedupPreview, errorMessage } from '@kol/shared-sdk';

/** Wait after the last change before asking: a slider dragged asks once, not per step. */
const SETTLE_MS = 500;

/**
 * The before / after frame of `clipUrl` for the current presets (`dedup_preview`), asked again
 * each time they settle. Answers the last frames while the next ones are made.
 */
export function useDedupPreview(
  clipUrl: string | null,
  presets: DedupPresets,
  aspect: '9:16' | '16:9',
) {
  const [preview, setPreview] = useState<DedupPreview | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const key = JSON.stringify([clipUrl, presets, aspect]);

  useEffect(() => {
    if (!clipUrl) return undefined;
    let current = true;
    const timer = setTimeout(() => {
      setLoading(true);
      previewDedup({ sourceVideoUrl: clipUrl, presets, aspect }).then(
        (answer) => {
          if (!current) return;
          setPreview(answer);
          setError(null);
          setLoading(false);
        },
        (reason: unknown) => {
          if (!current) return;
          setError(`预览失败：${errorMessage(reason)}`);
          setLoading(false);
        },
      );
    }, SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // The key is the inputs' value: a new object with the same presets asks nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  // Without a clip there is nothing to show, whatever was previewed before.
  return clipUrl ? { preview, loading, error } : { preview: null, loading: false, error: null };
}
