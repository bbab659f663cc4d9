import { useEffect, useState } from 'react';
import { getPlatforms, type BookPlatform, errorMessage } from '@kol/shared-sdk';

/** The book platforms (`get_platforms`), fetched once; `reload` asks again after a failure. */
export function usePlatforms() {
  const [platforms, setPlatforms] = useState<BookPlatform[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    getPlatforms()
      .then((answer) => {
        if (!live) return;
        setPlatforms(answer);
        setError(null);
      })
      .catch((failure: unknown) => {
        if (live) setError(errorMessage(failure));
      });
    return () => {
      live = false;
    };
  }, [attempt]);

  return { platforms, error, reload: () => setAttempt((count) => count + 1) };
}
