import { theme } from 'antd';
import type { ReactNode } from 'react';

/**
 * A number under its label, as antd's Statistic shows one. Not antd's Statistic: it brings
 * Skeleton and number formatting the home page's counts do not need.
 */
export function Figure({ label, value }: { label: ReactNode; value: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div>
      <div style={{ color: token.colorTextDescription, fontSize: token.fontSize }}>{label}</div>
      <div style={{ color: token.colorTextHeading, fontSize: token.fontSizeHeading3 }}>{value}</div>
    </div>
  );
}
