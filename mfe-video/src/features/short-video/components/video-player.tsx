import { mediaUrl } from '@kol/shared-sdk';
import { Image } from 'antd';

interface VideoPlayerProps {
  videoUrl: string;
  coverUrl: string;
  aspect: '9:16' | '16:9';
  onDuration: (ms: number) => void;
}

/**
 * The finished video. The server answers byte ranges for it, so the player seeks without
 * loading the whole file.
 */
export function VideoPlayer({ videoUrl, coverUrl, aspect, onDuration }: VideoPlayerProps) {
  const portrait = aspect === '9:16';
  return (
    <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', alignItems: 'flex-start' }}>
      <video
        aria-label="视频播放器"
        controls
        preload="metadata"
        src={mediaUrl(videoUrl)}
        poster={coverUrl ? mediaUrl(coverUrl) : undefined}
        onLoadedMetadata={(event) => {
          const seconds = event.currentTarget.duration;
          if (Number.isFinite(seconds)) onDuration(Math.round(seconds * 1000));
        }}
        style={{
          width: portrait ? 'min(100%, 360px)' : 'min(100%, 720px)',
          aspectRatio: portrait ? '9 / 16' : '16 / 9',
          background: '#000',
          borderRadius: 8,
        }}
      />
      {coverUrl && (
        <Image
          src={mediaUrl(coverUrl)}
          alt="封面"
          width={portrait ? 90 : 160}
          style={{ borderRadius: 6 }}
        />
      )}
    </div>
  );
}
