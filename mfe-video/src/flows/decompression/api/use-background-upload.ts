import { useRef, useState } from 'react';
import { App } from 'antd';
import { isApiError, type Material, errorMessage } from '@kol/shared-sdk';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import { backgroundFileProblem, probeVideoDurationMs } from '../background-file';
import { uploadBackground } from './upload-background';

/** The tag the server lists the user's own uploaded videos under. */
export const UPLOAD_TAG_ID = 100;

function uploadFailure(reason: unknown): string {
  if (isApiError(reason)) return errorMessage(reason);
  return reason instanceof Error && reason.message ? reason.message : errorMessage(reason);
}

interface BackgroundUploadInput {
  /** The uploaded video becomes the background. */
  onChange: (materialId: number) => void;
  /** True while an upload runs, so the page does not render without it. */
  onBusyChange?: (busy: boolean) => void;
  /** After the upload is chosen: the list shows the user's uploads (and is read again). */
  onUploaded: () => void;
}

/**
 * The creator's own background video (`upload_media`): checked in the browser first (kind,
 * size, and length when the browser can read it), then sent with its progress. A refusal says
 * why and leaves the background chosen before; the upload, once sent, is the one chosen.
 */
export function useBackgroundUpload({ onChange, onBusyChange, onUploaded }: BackgroundUploadInput) {
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [picked, setPicked] = useState<Material | null>(null);

  // One file at a time: a second pick while one is checked or sent waits its turn (ignored).
  const { run: choose, busy: choosing } = useSingleFlight(async (file: File | undefined) => {
    if (!file) return;
    let found = backgroundFileProblem(file);
    if (!found) found = backgroundFileProblem(file, await probeVideoDurationMs(file));
    setProblem(found);
    if (found) {
      void message.error(found);
      return;
    }
    setPercent(0);
    onBusyChange?.(true);
    try {
      const uploaded = await uploadBackground(file, setPercent);
      onChange(uploaded.assetId);
      setPicked({
        materialId: uploaded.assetId,
        name: uploaded.name,
        coverUrl: '',
        videoUrl: uploaded.url,
        durationMs: uploaded.durationMs,
        source: 1,
        tagIds: [UPLOAD_TAG_ID],
      });
      onUploaded();
      void message.success(`「${file.name}」已上传并设为背景`);
    } catch (reason) {
      const text = `背景视频上传失败：${uploadFailure(reason)}`;
      setProblem(text);
      void message.error(text);
    } finally {
      setPercent(null);
      onBusyChange?.(false);
      if (input.current) input.current.value = '';
    }
  });

  // A loop chosen from the library settles an earlier refused upload.
  const settle = () => setProblem(null);

  return { input, percent, problem, picked, choose, choosing, settle };
}

export type BackgroundUpload = ReturnType<typeof useBackgroundUpload>;
