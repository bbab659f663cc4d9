import { useState } from 'react';
import { App } from 'antd';
import {
  ProjectType,
  errorMessage,
  estimateNarrationMs,
  narrationVoiceOf,
  overseasTextRefusal,
  translateText,
} from '@kol/shared-sdk';
import { useServices } from '@kol/shared-sdk/ui';
import { videoTextProblem } from '../../../flow-kit/video-text';
import type { DecompressionType } from '../decompression-flow';
import { useDecompressionDraft } from './use-decompression-draft';
import { useRenderDecompression } from './use-render-decompression';

/**
 * The decompression page's state and actions: its input (`useDecompressionDraft`), the text's
 * checks (an overseas video's English with the translation offered), the estimated length, and
 * 生成视频's check before the count is asked for and 确认生成's render
 * (`useRenderDecompression`). The step screen composes its sections over these.
 */
export function useDecompressionForm(type: DecompressionType) {
  const { message } = App.useApp();
  const overseas = type === ProjectType.decompressionOverseas;
  const { draft, update, changeSettings, handedOver } = useDecompressionDraft(overseas);
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const render = useRenderDecompression(type, draft, update);

  const changeText = (text: string) => {
    update((current) => ({ ...current, text }));
    if (problem) setProblem(videoTextProblem(text));
  };
  const changeTitle = (title: string) => update((current) => ({ ...current, title }));
  // The narration's length with the voice the server will use (English overseas by default):
  // the video lasts exactly as long, so it is known before anything is spent.
  const estimatedMs = estimateNarrationMs(draft.text, {
    voiceId: narrationVoiceOf(type, draft.settings.voiceId),
    speed: draft.settings.speed ?? 1,
  });
  // An overseas video speaks English: a Chinese text is refused here as the server refuses it,
  // with the chat model's translation offered when the installation has one.
  const services = useServices();
  const canTranslate = services !== null && services.text !== null;
  const englishProblem = overseas ? overseasTextRefusal(draft.text, canTranslate) : null;
  const [translating, setTranslating] = useState(false);
  const translate = async () => {
    setTranslating(true);
    try {
      const answer = await translateText({ text: draft.text });
      changeText(answer.text);
      void message.success(`已由「${answer.engine}」翻译为英文，请检查后再生成`);
    } catch (reason) {
      void message.error(`翻译失败：${errorMessage(reason)}`);
    } finally {
      setTranslating(false);
    }
  };

  /** Checks the input before the count is asked for; makes nothing (取消 leaves nothing). */
  const prepare = async (): Promise<boolean> => {
    const found = videoTextProblem(draft.text) ?? englishProblem;
    setProblem(found);
    if (found) {
      void message.error(found);
      return false;
    }
    if (uploading) {
      void message.warning('背景视频还在上传，请等上传完成');
      return false;
    }
    return true;
  };

  return {
    overseas,
    handedOver,
    draft,
    estimatedMs,
    problem,
    englishProblem,
    canTranslate,
    translating,
    changeText,
    changeTitle,
    changeSettings,
    setUploading,
    translate,
    prepare,
    render,
  };
}

export type DecompressionForm = ReturnType<typeof useDecompressionForm>;
