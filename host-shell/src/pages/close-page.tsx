import { Result } from 'antd';
import { useEffect } from 'react';
import { resultTitle } from '../components/result-title';

/** A window opened for sign-on closes itself here. */
export function ClosePage() {
  useEffect(() => {
    window.close();
  }, []);
  return <Result status="success" title={resultTitle('已完成，可以关闭此窗口')} />;
}
