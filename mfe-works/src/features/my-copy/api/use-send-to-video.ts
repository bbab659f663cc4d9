import { useState } from 'react';
import { App } from 'antd';
import { useNavigate } from '@kol/shared-sdk/router';
import { getWorkInfo, sessionStore, errorMessage } from '@kol/shared-sdk';

/**
 * 用于视频: the work's whole text (a list row has only an excerpt) becomes the video flow's
 * `KOL_VIDEO_CONTENT`, then the user lands on `/video/config`.
 */
export function useSendToVideo() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [sendingId, setSendingId] = useState<number | null>(null);

  const sendText = (text: string) => {
    if (!text.trim()) {
      void message.warning('这篇文案是空的，先写点内容再用于视频');
      return;
    }
    sessionStore.set('videoContent', text);
    navigate('/video/config');
  };

  const sendWork = async (workId: number) => {
    setSendingId(workId);
    try {
      const work = await getWorkInfo({ workId });
      sendText(work.text);
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setSendingId(null);
    }
  };

  return { sendWork, sendText, sendingId };
}
