import { useEffect, useState } from 'react';
import { getTtsList, type Voice, errorMessage } from '@kol/shared-sdk';

/** The voices that read a language (`tts_list`): `zh` or `en`; provider voices read both. */
export function useVoices(language: 'zh' | 'en' | null) {
  const [voices, setVoices] = useState<Voice[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    getTtsList(language ? { language } : {}).then(
      (answer) => {
        if (!live) return;
        setVoices(answer);
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
  }, [language, attempt]);

  return {
    voices,
    loading,
    error,
    reload: () => {
      setLoading(true);
      setAttempt((n) => n + 1);
    },
  };
}
