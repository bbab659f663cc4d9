import type { ReactNode } from 'react';
import { Flex, Typography, theme } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Link } from 'react-router-dom';
import { usePhoneLayout } from '../lib/phone';

interface PageFrameProps {
  title: string;
  /** Beside the title on a wide screen, under it on a phone. */
  extra?: ReactNode;
  /** The flow's steps, above the content. */
  steps?: ReactNode;
  /** The page's main buttons: right-aligned under the content, or a sticky bar on a phone. */
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
 * controls and the actions in a bar stuck to the bottom of the screen, in reach of a thumb.
 */
export function PageFrame({ title, extra, steps, actions, outside, children }: PageFrameProps) {
  const phone = usePhoneLayout();
  // Under /m the host's phone frame is around the page even for an outside route.
  const bare = outside && !phone;
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      gap={phone ? 12 : 16}
      style={{
        width: '100%',
        maxWidth: phone ? undefined : 1200,
        ...(bare ? { margin: '0 auto', padding: 24, minHeight: '100vh' } : {}),
      }}
      data-layout={phone ? 'phone' : 'wide'}
    >
      {bare && (
        <Link to="/video" style={{ alignSelf: 'flex-start' }}>
          <ArrowLeftOutlined /> 视频合成
        </Link>
      )}
      <Flex
        justify="space-between"
        align={phone ? 'stretch' : 'center'}
        gap={12}
        vertical={phone}
        wrap
      >
        <Typography.Title level={phone ? 4 : 3} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {extra}
      </Flex>
      {steps}
      {children}
      {actions && (
        <Flex
          role="toolbar"
          aria-label="页面操作"
          gap={8}
          vertical={phone}
          justify="flex-end"
          wrap
          style={
            phone
              ? {
                  position: 'sticky',
                  bottom: 0,
                  zIndex: 5,
                  marginInline: -12,
                  padding: 12,
                  background: token.colorBgElevated,
                  borderTop: `1px solid ${token.colorBorderSecondary}`,
                }
              : undefined
          }
          className={phone ? 'kol-phone-actions' : undefined}
        >
          {actions}
        </Flex>
      )}
    </Flex>
  );
}
