import { verifySsoTicket } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { App, Spin } from 'antd';
import { useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from '@kol/shared-sdk/router';

/** `/login/ticket?ticket=…`: verify the sign-on ticket, then go home (spec section 4). */
export function TicketPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const setUser = useSetAtom(currentUserAtom);
  const started = useRef(false);
  const { message } = App.useApp();

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const ticket = params.get('ticket') ?? '';
    verifySsoTicket({ ticket })
      .then((user) => setUser(user))
      .catch((error: unknown) => {
        message.error(error instanceof Error ? error.message : '登录票据无效');
      })
      .finally(() => navigate('/', { replace: true }));
  }, [params, navigate, setUser, message]);

  return <Spin size="large" tip="正在登录…" style={{ display: 'block', margin: '30vh auto' }} />;
}
