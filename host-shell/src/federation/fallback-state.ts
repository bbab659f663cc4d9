/**
 * What the federation runtime plugin and the app share about each remote. It has no imports on
 * purpose: the runtime plugin is evaluated before any shared module (the SDK, React) exists.
 */
export interface RemoteVersionRef {
  version: string;
  manifestUrl: string;
}

export interface RemoteLoadState {
  active: RemoteVersionRef;
  lastKnownGood: RemoteVersionRef | null;
  /** The version this page is using now: the active one, or its last known good after a failure. */
  current: RemoteVersionRef;
}

export interface RemoteFailureEvent {
  remote: string;
  version: string;
  /** The runtime lifecycle that failed: afterResolve (manifest), onLoad (module), ... */
  phase: string;
  message: string;
}

export const remoteLoadStates = new Map<string, RemoteLoadState>();

type FailureListener = (event: RemoteFailureEvent) => void;
const pending: RemoteFailureEvent[] = [];
let listener: FailureListener | null = null;

/** Failures are queued until the app (which reports them through the SDK) listens. */
export function recordRemoteFailure(event: RemoteFailureEvent): void {
  if (listener) listener(event);
  else pending.push(event);
}

export function onRemoteFailure(next: FailureListener): () => void {
  listener = next;
  pending.splice(0).forEach(next);
  return () => {
    if (listener === next) listener = null;
  };
}
