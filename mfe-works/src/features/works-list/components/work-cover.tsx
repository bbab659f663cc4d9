import { Flex, theme } from 'antd';
import { PictureOutlined } from '@ant-design/icons';
import { mediaUrl } from '@kol/shared-sdk';

const COVER_HEIGHT = 160;

/** A work's cover, or a neutral block of the same size when it has none yet. */
export function WorkCover({ title, coverUrl }: { title: string; coverUrl: string }) {
  const { token } = theme.useToken();
  if (coverUrl) {
    return (
      <img
        src={mediaUrl(coverUrl)}
        alt={`${title} 封面`}
        loading="lazy"
        style={{ width: '100%', height: COVER_HEIGHT, objectFit: 'cover', display: 'block' }}
      />
    );
  }
  return (
    <Flex
      vertical
      align="center"
      justify="center"
      gap={4}
      aria-label={`${title} 暂无封面`}
      role="img"
      style={{
        height: COVER_HEIGHT,
        background: token.colorFillTertiary,
        color: token.colorTextQuaternary,
      }}
    >
      <PictureOutlined aria-hidden style={{ fontSize: 28 }} />
      <span style={{ fontSize: 12 }}>暂无封面</span>
    </Flex>
  );
}
