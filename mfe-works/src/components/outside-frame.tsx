import type { ReactNode } from 'react';
import { Flex } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Link } from '@kol/shared-sdk/router';

interface OutsideFrameProps {
  /** Where the way back leads, and what it says. */
  back: { to: string; label: string };
  children: ReactNode;
}

/**
 * The frame of a page outside the host's layout: no header or menu is around it, so it pads
 * itself, centres its content and offers the way back (as the video remote's outside pages do).
 * The pages inside the layout need none: the host's frame does all of that.
 */
export function OutsideFrame({ back, children }: OutsideFrameProps) {
  return (
    <Flex
      vertical
      gap={16}
      data-testid="outside-frame"
      style={{
        width: '100%',
        maxWidth: 1200,
        margin: '0 auto',
        padding: 24,
        minHeight: '100vh',
        // Border-box: the padding inside the 100% width, or a narrow screen scrolls sideways.
        boxSizing: 'border-box',
      }}
    >
      <Link to={back.to} style={{ alignSelf: 'flex-start' }}>
        <ArrowLeftOutlined aria-hidden /> {back.label}
      </Link>
      {children}
    </Flex>
  );
}
