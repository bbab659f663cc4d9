import { Typography } from 'antd';

interface EndCardPreviewProps {
  productName: string;
  callToAction: string;
  portrait: boolean;
}

/**
 * The video's last picture as the server draws it: the product's name over a dark blue-violet
 * card and the call to action as a button, held while that call is spoken last.
 */
export function EndCardPreview({ productName, callToAction, portrait }: EndCardPreviewProps) {
  return (
    <div
      role="img"
      aria-label="片尾预览"
      style={{
        width: portrait ? 162 : 288,
        height: portrait ? 288 : 162,
        borderRadius: 6,
        background: 'linear-gradient(160deg, #1b1f4a, #3a2a6e)',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 16,
        padding: 12,
        boxSizing: 'border-box',
      }}
    >
      <Typography.Text strong style={{ color: '#fff', fontSize: 18, textAlign: 'center' }}>
        {productName}
      </Typography.Text>
      <span
        style={{
          background: '#ff4d8d',
          color: '#fff',
          borderRadius: 999,
          padding: '4px 16px',
          fontWeight: 600,
        }}
      >
        {callToAction}
      </span>
    </div>
  );
}
