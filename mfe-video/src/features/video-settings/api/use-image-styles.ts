import { useEffect, useState } from 'react';
import { getLoras, type Lora, errorMessage } from '@kol/shared-sdk';

/** The image styles (`get_loras`; their ids are what `imageStyleId` takes). */
export function useImageStyles() {
  const [styles, setStyles] = useState<Lora[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    getLoras().then(
      (answer) => {
        if (!live) return;
        setStyles(answer);
        setError(null);
        setLoading(false);
      },
      (reason: unknown) => {
        if (!live) return;
        setError(errorMessage(reason));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  return { styles, loading, error, reload: () => setAttempt((n) => n + 1) };
}
