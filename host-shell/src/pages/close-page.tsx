import { Result } from 'antd';
import { useEffect } from 'react';
import { resultTitle } from '../components/result-title';

/** A window opened for sign-on closes itself here. */
export function ClosePage() {
  useEffect(() => {
    window.close();
  }, []);
  // A page of its own, outside the layout: its main landmark is here.
  return (
    <main>
      <Result status="success" title={resultTitle('已完成，可以关闭此窗口')} />
    </main>
  );
}
