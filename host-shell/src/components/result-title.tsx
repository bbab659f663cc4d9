import type { CSSProperties } from 'react';

const AS_RESULT_TITLE: CSSProperties = { font: 'inherit', color: 'inherit', margin: 0 };

/**
 * A Result page's title as the page's `h1` (antd draws it in a div), looking as antd draws it:
 * the host's own result pages (error, not found, no permission, closed) are whole pages.
 */
export function resultTitle(text: string) {
  return <h1 style={AS_RESULT_TITLE}>{text}</h1>;
}
