import { useState } from 'react';
import { App } from 'antd';
import { useNavigate } from '@kol/shared-sdk/router';
import { getWorkInfo, handOverToVideo, errorMessage, type VideoTypeEntry } from '@kol/shared-sdk';

/** A text waiting for the person to choose which video it becomes. */
interface PendingText {
  text: string;
  title: string;
}

/**
 * 用于视频, as 发送到视频 on /generate: the person chooses the video type (`VideoTypeChooser`),
 * then the work's whole text (a list row has only an excerpt) and its title go to that type's
 * first step as `KOL_VIDEO_HANDOVER` (`handOverToVideo`). An empty text is refused first.
 */
export function useSendToVideo() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [sendingId, setSendingId] = useState<number | null>(null);
  const [pending, setPending] = useState<PendingText | null>(null);

  const sendText = (text: string, title: string) => {
    if (!text.trim()) {
      void message.warning('这篇文案是空的，先写点内容再用于视频');
      return;
    }
    setPending({ text, title });
  };

  const sendWork = async (workId: number) => {
    setSendingId(workId);
    try {
      const work = await getWorkInfo({ workId });
      sendText(work.text, work.title);
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setSendingId(null);
    }
  };

  const choose = (entry: VideoTypeEntry) => {
    if (!pending) return;
    setPending(null);
    navigate(handOverToVideo(entry, pending.text, pending.title));
  };

  return {
    sendWork,
    sendText,
    sendingId,
    choosing: pending !== null,
    choose,
    cancel: () => setPending(null),
  };
}
