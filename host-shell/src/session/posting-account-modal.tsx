import { MODAL_DEFAULT_WIDTH, POSTING_ACCOUNT_PROMPT_DELAY_MS } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { Button, Modal, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from '@kol/shared-sdk/router';
import { desktopPathOf, isPostingPromptExempt } from './route-rules';

/**
 * Spec sections 5 and 8: while the posting account (homePageUrl) is empty, a modal that cannot
 * be closed sends the user to the personal centre, 20 ms after the page shows.
 */
export function PostingAccountModal() {
  const user = useAtomValue(currentUserAtom);
  const location = useLocation();
  const navigate = useNavigate();
  const needed =
    !!user &&
    user.status !== 0 &&
    user.homePageUrl === '' &&
    !isPostingPromptExempt(desktopPathOf(location.pathname));
  // The prompt shows 20 ms after a page that needs it appears, and again on each such page.
  const pageKey = needed ? location.pathname : null;
  const [shownFor, setShownFor] = useState<string | null>(null);

  useEffect(() => {
    if (pageKey === null) return;
    const timer = setTimeout(() => setShownFor(pageKey), POSTING_ACCOUNT_PROMPT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [pageKey]);

  return (
    <Modal
      open={pageKey !== null && shownFor === pageKey}
      title="友情提示"
      width={MODAL_DEFAULT_WIDTH}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={
        <Button type="primary" onClick={() => navigate('/user')}>
          去填写
        </Button>
      }
    >
      <Typography.Paragraph>由于系统升级，请前往个人中心填写发布账号信息。</Typography.Paragraph>
    </Modal>
  );
}
