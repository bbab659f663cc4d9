import { useCallback, useEffect, useState } from 'react';
import {
  endCutVideo,
  generateCutTts,
  getCutVideo,
  getSystemMaterialList,
  getWorkInfo,
  getWorkResult,
  reSendMergeRequest,
  sendMergeRequest,
  updateCutVideoData,
  type CutSegment,
  type CutVideo,
  type Material,
  type WorkResult,
  errorMessage,
} from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';

const POLL_MS = 1000;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Follows a task (`get_work_result?taskId=`) to its end; a failure rejects with its reason. */
async function taskEnd(taskId: string, alive: () => boolean): Promise<WorkResult> {
  for (;;) {
    const result = await getWorkResult({ taskId });
    if (result.state === 'succeeded') return result;
    if (result.state === 'failed' || result.state === 'cancelled') {
      throw new Error(result.error || '配音任务失败');
    }
    if (!alive()) throw new Error('页面已关闭');
    await wait(POLL_MS);
  }
}

export type SegmentEdit = Pick<CutSegment, 'text' | 'materialId' | 'startMs' | 'endMs'>;

/**
 * A work's segment editor: its cut data (`get_cut_video`, made from the text on first use), the
 * library its backgrounds come from, the edits (`update_cut_video_data`), speech
 * (`generate_cut_tts`, followed to its end) and the merge (`end_cut_video`, then
 * `send_merge_request` or, after a failed merge, `re_send_merge_request`). Everything is the
 * server's: a reload shows the segments as saved. A save is based on the cut data the page holds
 * (loaded, saved or read after speech): segments spoken or changed elsewhere since are merged in,
 * and the person asked when the same segment was changed both ways.
 */
export function useCutVideo(workId: number) {
  const [cut, setCut] = useState<CutVideo | null>(null);
  const [workType, setWorkType] = useState<number | null>(null);
  const [lastResult, setLastResult] = useState<WorkResult | null>(null);
  const [materials, setMaterials] = useState<Material[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const revisionedSave = useRevisionedSave();

  useEffect(() => {
    let live = true;
    Promise.all([getCutVideo({ workId }), getWorkInfo({ workId })]).then(
      ([data, work]) => {
        if (!live) return;
        setCut(data);
        setWorkType(work.type);
        setError(null);
      },
      (reason) => live && setError(errorMessage(reason)),
    );
    getWorkResult({ workId }).then(
      (result) => live && setLastResult(result),
      () => undefined,
    );
    getSystemMaterialList({ pageIndex: 1, pageSize: 100 }).then(
      (page) => live && setMaterials(page.items),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [workId, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);

  /**
   * Saves the segments as edited; answers the server's copy (audio kept where text is), or null
   * when the person chose the segments as saved elsewhere (read again then).
   */
  const save = async (segments: CutSegment[]): Promise<CutVideo | null> => {
    if (!cut) return null;
    const saved = await revisionedSave({
      base: cut.segments,
      edited: segments,
      revision: cut.revision,
      save: (value, revision) => updateCutVideoData({ workId, revision, segments: value }),
      load: async () => {
        const newest = await getCutVideo({ workId });
        return { value: newest.segments, revision: newest.revision };
      },
    });
    if (!saved) {
      reload();
      return null;
    }
    setCut(saved);
    return saved;
  };

  /** Speaks the given segments (all when none given) and reloads them once spoken. */
  const speak = async (voiceId: string, speed: number, indexes?: number[]) => {
    const { taskId } = await generateCutTts({
      workId,
      voiceId,
      speed,
      ...(indexes ? { indexes } : {}),
    });
    await taskEnd(taskId, () => true);
    setCut(await getCutVideo({ workId }));
  };

  /** Marks the editing done and starts the merge; answers its task. */
  const merge = async (again: boolean) => {
    await endCutVideo({ workId });
    return again ? reSendMergeRequest({ workId }) : sendMergeRequest({ workId });
  };

  return { cut, workType, lastResult, materials, error, reload, save, speak, merge };
}
