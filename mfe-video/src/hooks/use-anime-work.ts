import { useEffect, useState } from 'react';
import { getWorkInfo, type WorkDetail, errorMessage } from '@kol/shared-sdk';
import { ANIME_TYPE } from '../lib/anime-flow';
import { parseScriptText, type ScriptLine } from '../lib/anime-script';

/** An anime short's work (`work_info`) and its script's lines, for the steps that read them. */
export function useAnimeWork(workId: number | null) {
  const [work, setWork] = useState<WorkDetail | null>(null);
  const [lines, setLines] = useState<ScriptLine[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (workId === null) return;
    let live = true;
    getWorkInfo({ workId }).then(
      (answer) => {
        if (!live) return;
        if (answer.type !== ANIME_TYPE) {
          setError('这个作品不是 AI漫剧，请从视频合成重新开始');
          return;
        }
        setWork(answer);
        setLines(parseScriptText(answer.text));
        setError(null);
      },
      (reason: unknown) => {
        if (live) setError(errorMessage(reason));
      },
    );
    return () => {
      live = false;
    };
  }, [workId, attempt]);

  return { work, setWork, lines, error, reload: () => setAttempt((n) => n + 1) };
}
