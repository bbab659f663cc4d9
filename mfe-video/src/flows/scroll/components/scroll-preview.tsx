import { useMemo, useState } from 'react';
import { Button, Flex, Typography } from 'antd';
import { PauseOutlined, CaretRightOutlined } from '@ant-design/icons';
import { estimateNarrationMs, formatDurationMs, type VideoSettings } from '@kol/shared-sdk';
import { intlWords, scrollLines, SCROLL_COLUMN } from '@kol/shared-sdk/text';

interface ScrollPreviewProps {
  text: string;
  speed: number;
  /** The chosen voice; null: the server's default (Mandarin). */
  voiceId: string | null;
  aspect: VideoSettings['aspect'];
  /** The chosen background's cover, behind the text. */
  coverUrl?: string;
}

const KEYFRAMES =
  '@keyframes kol-scroll-up { from { transform: translateY(0); } to { transform: translateY(-100%); } }';

/** The column's side margin, as a share of the frame (the render's column is centred). */
const SIDE = `${((1 - SCROLL_COLUMN.widthShare) * 50).toFixed(2)}%`;
const BAND = `${SCROLL_COLUMN.readingBand * 100}%`;

/**
 * The scroll's pace before anything is spent: the text climbs past the reading band (where the
 * server puts the line being spoken) in the time the narration is estimated to take at the
 * chosen speed, as the render scrolls it at constant speed over the voice's length. The lines
 * are the render's (the SDK's scrollLines, between words, at the aspect's line limit, in glyphs
 * of the same share of the frame), shown as they are: the browser must not wrap them again,
 * or it would break inside words (「镇/上的客栈」).
 */
export function ScrollPreview({ text, speed, voiceId, aspect, coverUrl }: ScrollPreviewProps) {
  const [playing, setPlaying] = useState(true);
  const durationMs = estimateNarrationMs(text, { voiceId, speed });
  const lines = useMemo(() => scrollLines(text, aspect, intlWords), [text, aspect]);
  const portrait = aspect !== '16:9';
  const width = portrait ? 180 : 320;
  const height = portrait ? 320 : 180;

  return (
    <Flex vertical gap={8} align="flex-start">
      <style>{KEYFRAMES}</style>
      <div
        role="img"
        aria-label="滚屏预览"
        // The video's own background, as the render draws it: content, not the interface's colour.
        data-content-colour
        style={{
          position: 'relative',
          width,
          height,
          overflow: 'hidden',
          borderRadius: 6,
          background: coverUrl ? `#10172a url(${coverUrl}) center / cover` : '#10172a',
        }}
      >
        <div
          style={{
            position: 'absolute',
            left: 0,
            right: 0,
            top: BAND,
            borderTop: '1px dashed rgba(255,255,255,0.35)',
          }}
        />
        {durationMs > 0 && (
          <div
            // A new key restarts the scroll from the top whenever its pace changes.
            key={`${durationMs}-${text.length}`}
            data-testid="scroll-column"
            style={{
              position: 'absolute',
              top: BAND,
              left: SIDE,
              right: SIDE,
              color: '#fff',
              fontWeight: 700,
              fontSize: width * SCROLL_COLUMN.fontShare[aspect],
              lineHeight: SCROLL_COLUMN.lineHeight,
              textAlign: 'center',
              // The lines are laid out already: no wrapping of the browser's own.
              whiteSpace: 'pre',
              textShadow: '0 0 3px #000',
              animation: `kol-scroll-up ${(durationMs / 1000).toFixed(1)}s linear infinite`,
              animationPlayState: playing ? 'running' : 'paused',
            }}
          >
            {lines.join('\n')}
          </div>
        )}
      </div>
      <Flex align="center" gap={8}>
        <Button
          size="small"
          icon={playing ? <PauseOutlined aria-hidden /> : <CaretRightOutlined aria-hidden />}
          onClick={() => setPlaying((p) => !p)}
          disabled={durationMs === 0}
        >
          {playing ? '暂停预览' : '播放预览'}
        </Button>
        <Typography.Text type="secondary" data-testid="scroll-pace">
          {durationMs > 0
            ? `按 ${speed.toFixed(1)}× 语速约 ${formatDurationMs(durationMs)} 滚完（预估，成片以配音时长为准）`
            : '填写文案后预览滚动速度'}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}
