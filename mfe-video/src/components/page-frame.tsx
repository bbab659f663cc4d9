import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Flex, Typography, theme } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Link } from '@kol/shared-sdk/router';
import { usePhoneLayout } from '../lib/phone';

interface PageFrameProps {
  title: string;
  /** Beside the title on a wide screen, under it on a phone. */
  extra?: ReactNode;
  /** The flow's steps, above the content. */
  steps?: ReactNode;
  /**
   * The page's main buttons: right-aligned under the content and stuck to the bottom of the
   * window while the content runs below it, or a bar at the bottom of the screen on a phone.
   */
  actions?: ReactNode;
  /**
   * A page outside the host's layout (no header or menu around it): it pads itself and offers
   * the way back to the video hub.
   */
  outside?: boolean;
  children: ReactNode;
}

/**
 * The frame of every video page. The phone variant (`/m/...`) is one column with full-width
 * controls and the actions in one row stuck to the bottom of the screen, in reach of a thumb.
 */
export function PageFrame({ title, extra, steps, actions, outside, children }: PageFrameProps) {
  const phone = usePhoneLayout();
  // Under /m the host's phone frame is around the page even for an outside route.
  const bare = outside && !phone;
  return (
    <Flex
      vertical
      gap={phone ? 12 : 16}
      style={{
        width: '100%',
        maxWidth: phone ? undefined : 1200,
        // Border-box: the padding inside the 100% width, or a phone-wide screen scrolls sideways.
        ...(bare
          ? { margin: '0 auto', padding: 24, minHeight: '100vh', boxSizing: 'border-box' }
          : {}),
      }}
      data-layout={phone ? 'phone' : 'wide'}
    >
      {bare && (
        <Link to="/video" style={{ alignSelf: 'flex-start' }}>
          <ArrowLeftOutlined aria-hidden /> 视频合成
        </Link>
      )}
      <Flex
        justify="space-between"
        align={phone ? 'stretch' : 'center'}
        gap={12}
        vertical={phone}
        wrap
      >
        {/* The page's one h1, drawn at the size of a section title (antd's h3, h4 on a phone). */}
        <Typography.Title level={1} style={{ margin: 0, fontSize: phone ? 20 : 24 }}>
          {title}
        </Typography.Title>
        {extra}
      </Flex>
      {steps}
      {children}
      {actions &&
        (phone ? (
          <PhoneActionBar>{actions}</PhoneActionBar>
        ) : (
          <WideActionBar>{actions}</WideActionBar>
        ))}
    </Flex>
  );
}

/**
 * The wide screen's action bar: after the content, stuck to the bottom of the window while the
 * content is taller than the window, so a step's 下一步 is in sight without scrolling (a long
 * form such as the comic clip's configuration runs far below a 900 px high screen). Sticky, not
 * fixed: it keeps to the content's column beside the host's side menu, and sits at the end of a
 * short page. The host's boxes do not hide their overflow (its sticky header needs that too).
 */
function WideActionBar({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <Flex
      role="toolbar"
      aria-label="页面操作"
      gap={8}
      justify="flex-end"
      wrap
      style={{
        position: 'sticky',
        bottom: 0,
        zIndex: 5,
        paddingBlock: 12,
        background: token.colorBgLayout,
        borderTop: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      {children}
    </Flex>
  );
}

/**
 * The phone bar's layout: one row, each action as wide as its text and the primary one (or a
 * lone one) taking the rest. Three full-width buttons stacked took 145 px of an 812 px screen; a
 * row wraps only when its texts cannot fit.
 */
const PHONE_BAR_CSS = `
.kol-phone-actions > * { flex: 0 0 auto; }
.kol-phone-actions > .ant-btn-primary, .kol-phone-actions > :only-child { flex: 1 1 auto; }
`;

/**
 * The phone's action bar, fixed to the bottom of the screen, with a spacer of its height at the
 * end of the page so it never covers the last of the content. Fixed, not sticky: a sticky bar
 * sticks to its nearest scrolling ancestor, and any box the host wraps pages in that hides its
 * overflow (antd's Watermark did, until the host set it to `clip`) would hold it at the end of a
 * tall page instead of on the screen.
 */
function PhoneActionBar({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  const bar = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const element = bar.current;
    if (!element) return;
    const measure = () => setHeight(element.offsetHeight);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <>
      <div aria-hidden style={{ height, flexShrink: 0 }} />
      <style>{PHONE_BAR_CSS}</style>
      <Flex
        ref={bar}
        role="toolbar"
        aria-label="页面操作"
        gap={8}
        wrap
        align="center"
        className="kol-phone-actions"
        style={{
          position: 'fixed',
          left: 0,
          right: 0,
          bottom: 0,
          zIndex: 5,
          padding: 12,
          background: token.colorBgElevated,
          borderTop: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        {children}
      </Flex>
    </>
  );
}
