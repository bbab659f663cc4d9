import { CloseOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import { useAtomValue } from 'jotai';
import { remoteOverridesAtom } from '../federation/remote-state';
import { clearRemoteOverrides } from '../federation/remote-overrides';

/**
 * Says, in the header, that this browser runs a remote from a developer's dev server rather than
 * the registry's release (`KOL_REMOTE_OVERRIDES`), so nobody mistakes a local build for the
 * platform's. The cross clears the value and reloads: remotes are registered once, at start.
 * Plain elements, not antd's Tag, as BetaBadge: the header is on every first load.
 */
export function DevOverrideBadge() {
  const overrides = useAtomValue(remoteOverridesAtom);
  const { token } = theme.useToken();
  if (overrides.length === 0) return null;
  const text = `开发模式：${overrides
    .map((override) => `${override.name} 来自 ${override.source}`)
    .join('、')}`;
  return (
    <span
      role="status"
      data-testid="dev-override-badge"
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 6,
        padding: '0 4px 0 8px',
        fontSize: token.fontSizeSM,
        lineHeight: '22px',
        color: token.colorWarningText,
        background: token.colorWarningBg,
        border: `${token.lineWidth}px solid ${token.colorWarningBorder}`,
        borderRadius: token.borderRadiusSM,
        whiteSpace: 'nowrap',
      }}
    >
      {text}
      <button
        type="button"
        aria-label="清除开发模式覆盖"
        title="清除覆盖并刷新页面，恢复使用线上版本"
        onClick={() => {
          clearRemoteOverrides();
          window.location.reload();
        }}
        style={{
          display: 'inline-flex',
          padding: 2,
          border: 'none',
          background: 'transparent',
          color: 'inherit',
          cursor: 'pointer',
        }}
      >
        <CloseOutlined aria-hidden />
      </button>
    </span>
  );
}
