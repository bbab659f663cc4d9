import { useEffect, useState } from 'react';
import { sessionStore, videoHandoverFor, type VideoHandover } from '@kol/shared-sdk';

/**
 * The text and title 发送到视频 handed to this type's first step (`KOL_VIDEO_HANDOVER`), for a
 * new video only (no work in the address). Read once on arrival; the flow writes it into its
 * own draft at once, and the handover is then removed, so a later visit starts from the draft,
 * not from the handed text again. (Removed in an effect, not while reading: a render React
 * repeats must read it too.)
 */
export function useVideoHandover(type: number, workId: number | null): VideoHandover | null {
  const [handover] = useState(() => (workId === null ? videoHandoverFor(type) : null));
  useEffect(() => {
    if (handover) sessionStore.remove('videoHandover');
  }, [handover]);
  return handover;
}
