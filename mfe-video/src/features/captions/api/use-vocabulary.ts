import { useEffect, useState } from 'react';
import { getVocabulary, type VocabularyItem, errorMessage } from '@kol/shared-sdk';

/** The words a platform may flag, each with its safer wording (`get_vocabulary`). */
export function useVocabulary() {
  const [vocabulary, setVocabulary] = useState<VocabularyItem[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    getVocabulary(undefined).then(
      (answer) => {
        if (live) setVocabulary(answer);
      },
      (reason: unknown) => {
        if (live) setError(errorMessage(reason));
      },
    );
    return () => {
      live = false;
    };
  }, []);

  return { vocabulary, error };
}
