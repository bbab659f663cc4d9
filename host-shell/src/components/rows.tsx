import { theme } from 'antd';
import type { HTMLAttributes, Key, ReactNode } from 'react';

/**
 * Rows divided by a hairline, as antd's small List draws them. Not antd's List: it always
 * brings its pagination, and with it Select and a virtual list, into the first load of every
 * page that shows a list (about 25 KB of brotli for five rows).
 */
export function Rows<T>({
  items,
  rowKey,
  rowProps,
  children,
}: {
  items: readonly T[];
  rowKey: (item: T) => Key;
  rowProps?: (item: T) => HTMLAttributes<HTMLLIElement> & Record<`data-${string}`, unknown>;
  children: (item: T) => ReactNode;
}) {
  const { token } = theme.useToken();
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {items.map((item, index) => {
        const props = rowProps?.(item) ?? {};
        return (
          <li
            key={rowKey(item)}
            {...props}
            style={{
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              gap: token.marginSM,
              padding: `${token.paddingXS}px 0`,
              borderBlockEnd:
                index < items.length - 1
                  ? `${token.lineWidth}px solid ${token.colorSplit}`
                  : 'none',
              ...props.style,
            }}
          >
            {children(item)}
          </li>
        );
      })}
    </ul>
  );
}
