import { theme } from 'antd';

/**
 * The 「Beta」 mark beside the logo, drawn as antd's magenta Tag. Not antd's Tag: on the first
 * load of every page it would be the only user of that component's code and styles.
 */
export function BetaBadge() {
  const { token } = theme.useToken();
  return (
    <span
      style={{
        display: 'inline-block',
        padding: '0 7px',
        fontSize: token.fontSizeSM,
        lineHeight: '20px',
        // The lighter magenta: the base one on its tinted ground read below 4.5:1 for small text.
        color: token.magenta8,
        background: 'rgba(235, 47, 150, 0.12)',
        border: `${token.lineWidth}px solid ${token.magenta6}`,
        borderRadius: token.borderRadiusSM,
        whiteSpace: 'nowrap',
      }}
    >
      Beta
    </span>
  );
}
