/**
 * Whether this process should be sent work (GET /readyz; /healthz stays liveness: the process
 * answers at all). Not ready while it starts (migrations, the release of the builds), while it
 * drains at SIGTERM, or when a dependency it needs does not answer (the database, the bucket).
 */
export type ReadinessPhase = 'starting' | 'ready' | 'draining';

export interface DependencyCheck {
  /** What the answer names when it fails: `database`, `media store`. */
  name: string;
  check(): Promise<void>;
}

export interface ReadinessAnswer {
  ready: boolean;
  /** `ready`, `starting`, `draining`, or `<name> unavailable`. */
  status: string;
}

/** A dependency slower than this counts as not answering (a probe must answer quickly). */
const CHECK_TIMEOUT_MS = 3_000;

export class Readiness {
  phase: ReadinessPhase = 'starting';
  private checks: DependencyCheck[] = [];

  /** The dependencies to check at each probe once the process is ready. */
  checkAlso(checks: DependencyCheck[]): void {
    this.checks.push(...checks);
  }

  async answer(): Promise<ReadinessAnswer> {
    if (this.phase !== 'ready') return { ready: false, status: this.phase };
    for (const dependency of this.checks) {
      try {
        await withTimeout(dependency.check(), CHECK_TIMEOUT_MS);
      } catch {
        return { ready: false, status: `${dependency.name} unavailable` };
      }
    }
    return { ready: true, status: 'ready' };
  }
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
