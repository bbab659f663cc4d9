import { useEffect, useState } from 'react';
import { getPlatforms, type BookPlatform, errorMessage } from '@kol/shared-sdk';

/** The book platforms (`get_platforms`); the built-in local library is always one. */
export function usePlatforms() {
  const [platforms, setPlatforms] = useState<BookPlatform[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    getPlatforms().then(
      (answer) => {
        if (!live) return;
        setPlatforms(answer);
        setError(null);
      },
      (reason: unknown) => {
        if (live) setError(errorMessage(reason));
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  return { platforms, error, reload: () => setAttempt((n) => n + 1) };
}
