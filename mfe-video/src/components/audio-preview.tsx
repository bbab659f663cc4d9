import { mediaUrl } from '@kol/shared-sdk';
import { useEffect, useRef, useState } from 'react';
import { Button, Tooltip } from 'antd';
import { PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';

interface AudioPreviewProps {
  /** The clip to play; when absent, `onPlay` is asked for one first (e.g. an audition). */
  url?: string;
  /** Fetches the clip to play (an audition call); its promise's rejection is the caller's to show. */
  load?: () => Promise<string>;
  label: string;
  disabled?: boolean;
}

/** A play / pause button for one clip: music previews, voice auditions, speech results. */
export function AudioPreview({ url, load, label, disabled }: AudioPreviewProps) {
  const audio = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState(false);
  const [loading, setLoading] = useState(false);

  useEffect(
    () => () => {
      audio.current?.pause();
    },
    [],
  );

  const toggle = async () => {
    if (playing) {
      audio.current?.pause();
      setPlaying(false);
      return;
    }
    let source = url;
    if (!source && load) {
      setLoading(true);
      try {
        source = await load();
      } catch {
        // The caller already said why; nothing to play.
        return;
      } finally {
        setLoading(false);
      }
    }
    if (!source) return;
    audio.current?.pause();
    const player = new Audio(mediaUrl(source));
    audio.current = player;
    player.onended = () => setPlaying(false);
    setPlaying(true);
    // A browser that refuses to play (no sound device, autoplay rules) just stays silent.
    player.play()?.catch(() => setPlaying(false));
  };

  return (
    <Tooltip title={playing ? `停止${label}` : label}>
      <Button
        shape="circle"
        aria-label={playing ? `停止${label}` : label}
        icon={playing ? <PauseCircleOutlined aria-hidden /> : <PlayCircleOutlined aria-hidden />}
        loading={loading}
        disabled={disabled}
        onClick={() => void toggle()}
      />
    </Tooltip>
  );
}
