import { useEffect, useState } from 'react';
import { getNewBgMusicList, searchMusic, type Music, errorMessage } from '@kol/shared-sdk';

/** The music library (`new_bg_music_list`), or what a keyword finds in it (`search_music`). */
export function useMusic(keyword: string) {
  const [tracks, setTracks] = useState<Music[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    (keyword ? searchMusic({ keyword }) : getNewBgMusicList(undefined)).then(
      (answer) => {
        if (!live) return;
        setTracks(answer);
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
  }, [keyword, attempt]);

  return {
    tracks,
    loading,
    error,
    reload: () => {
      setLoading(true);
      setAttempt((n) => n + 1);
    },
  };
}
