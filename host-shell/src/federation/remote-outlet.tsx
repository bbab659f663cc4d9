import { Spin } from 'antd';
import { Component, useEffect, useState, type ReactNode } from 'react';
import { loadRemoteApp, loadedRemoteApp, resetRemote, type RemoteApp } from './remote-registry';

interface BoundaryProps {
  onError: (error: Error) => void;
  children: ReactNode;
}

/** Catches a remote page that throws while rendering, so the shell around it goes on. */
class RemoteRenderBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error) {
    this.props.onError(error);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

type OutletState =
  | { status: 'loading' }
  | { status: 'ready'; Page: RemoteApp }
  | { status: 'failed'; message: string };

/**
 * Loads a remote's `./App` and renders the page of one of its route claims. A remote that fails
 * to load (after the runtime plugin's fallback) or to render shows `failed` with a retry (the app
 * gives it the error page: pages sit above this part); the header, the menu and the other remotes
 * keep working.
 */
export function RemoteOutlet({
  remote,
  routePath,
  failed,
}: {
  remote: string;
  routePath: string;
  failed: (retry: () => void) => ReactNode;
}) {
  const [attempt, setAttempt] = useState(0);
  // A remote already loaded (an earlier page, a hover, idle time) renders in the first pass.
  const [state, setState] = useState<OutletState>(() => {
    const Page = loadedRemoteApp(remote);
    return Page ? { status: 'ready', Page } : { status: 'loading' };
  });

  useEffect(() => {
    let current = true;
    loadRemoteApp(remote).then(
      (Page) => current && setState({ status: 'ready', Page }),
      (error: unknown) =>
        current &&
        setState({
          status: 'failed',
          message: error instanceof Error ? error.message : String(error),
        }),
    );
    return () => {
      current = false;
    };
  }, [remote, attempt]);

  const retry = () => {
    resetRemote(remote);
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  };

  if (state.status === 'loading') {
    return <Spin size="large" style={{ display: 'block', margin: '120px auto' }} />;
  }
  if (state.status === 'failed') return <>{failed(retry)}</>;
  const { Page } = state;
  return (
    <RemoteRenderBoundary
      key={attempt}
      onError={(error) => setState({ status: 'failed', message: error.message })}
    >
      <Page routePath={routePath} />
    </RemoteRenderBoundary>
  );
}
