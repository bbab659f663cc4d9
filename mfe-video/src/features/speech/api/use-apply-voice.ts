import { useMutation, useQuery } from '@tanstack/react-query';
import { App } from 'antd';
import { errorMessage, getWorks, ttsApply, type WorkSummary } from '@kol/shared-sdk';
import { WORKS_KEY, useWorkSaved } from '../../../hooks/work-queries';

/** The works offered to 应用到作品: the newest 100 of every type. */
const WORKS_REQUEST = { pageIndex: 1, pageSize: 100 } as const;

/**
 * 应用到作品 (`tts_apply`): the voice and speed auditioned here become a work's narration. The
 * works are read only once the person opens the list (`enabled`); on success the pages showing
 * that work read it again, so its config page shows the new voice.
 */
export function useApplyVoice(listOpened: boolean) {
  const { message } = App.useApp();
  const workSaved = useWorkSaved();
  const works = useQuery({
    queryKey: [...WORKS_KEY, WORKS_REQUEST],
    queryFn: ({ signal }) => getWorks(WORKS_REQUEST, { signal }),
    enabled: listOpened,
  });
  const { mutate, isPending } = useMutation({
    mutationFn: (request: {
      work: WorkSummary;
      voiceId: string;
      voiceName: string;
      speed: number;
    }) => ttsApply({ workId: request.work.workId, voiceId: request.voiceId, speed: request.speed }),
    onSuccess: (_answer, { work, voiceName, speed }) => {
      workSaved(work.workId);
      void message.success(
        `已将「${voiceName}」（${speed.toFixed(1)}×）应用到《${work.title}》，下次生成它的视频时使用`,
      );
    },
    onError: (reason, { work }) => {
      void message.error(`应用到《${work.title}》失败：${errorMessage(reason)}`);
    },
  });
  return {
    works: works.data?.items ?? [],
    loading: works.isFetching,
    error: works.error ? errorMessage(works.error) : null,
    apply: mutate,
    applying: isPending,
  };
}
