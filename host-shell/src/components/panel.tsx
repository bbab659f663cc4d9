import { theme } from 'antd';
import { useState, type ReactNode } from 'react';

/**
 * A titled box drawn as antd's small Card. Not antd's Card: it always brings Tabs and Skeleton
 * into the first load, and the host's home page shows only a title, a link and a body.
 */
export function Panel({
  title,
  extra,
  hoverable = false,
  children,
}: {
  title: ReactNode;
  extra?: ReactNode;
  hoverable?: boolean;
  children: ReactNode;
}) {
  const { token } = theme.useToken();
  const [hovered, setHovered] = useState(false);
  return (
    <section
      onMouseEnter={hoverable ? () => setHovered(true) : undefined}
      onMouseLeave={hoverable ? () => setHovered(false) : undefined}
      style={{
        background: token.colorBgContainer,
        border: `${token.lineWidth}px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        boxShadow: hovered ? token.boxShadowTertiary : 'none',
        transition: `box-shadow ${token.motionDurationMid}`,
        height: '100%',
      }}
    >
      <header
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          minHeight: 38,
          padding: `0 ${token.paddingSM}px`,
          borderBlockEnd: `${token.lineWidth}px solid ${token.colorBorderSecondary}`,
          color: token.colorTextHeading,
          fontWeight: token.fontWeightStrong,
          fontSize: token.fontSize,
        }}
      >
        <span>{title}</span>
        {extra}
      </header>
      <div style={{ padding: token.paddingSM }}>{children}</div>
    </section>
  );
}
