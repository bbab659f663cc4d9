import { Result } from 'antd';
import { useEffect } from 'react';

/** A window opened for sign-on closes itself here. */
export function ClosePage() {
  useEffect(() => {
    window.close();
  }, []);
  return <Result status="success" title="已完成，可以关闭此窗口" />;
}
