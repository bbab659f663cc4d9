import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { createAuditRepository } from './audit';
import { createBooksRepository } from './books';
import { createCutVideosRepository } from './cut-videos';
import { createDedupPresetsRepository } from './dedup-presets';
import { createIdempotencyKeysRepository } from './idempotency-keys';
import { createLoginAttemptsRepository } from './login-attempts';
import { createProviderSlotsRepository } from './provider-slots';
import { createNoticesRepository } from './notices';
import { createQuotaService } from './quotas';
import { createReleasesRepository } from './releases';
import { createRolesRepository } from './roles';
import { createSeriesRepository } from './series';
import { createSpeechTryAcksRepository } from './speech-try-acks';
import { createSessionsRepository } from './sessions';
import { createTicketsRepository } from './tickets';
import { createUploadsRepository } from './uploads';
import { createUsersRepository } from './users';
import { createVideoTasksRepository } from './video-tasks';
import { createWorksRepository } from './works';
import { createWritingTasksRepository } from './writing-tasks';

/**
 * Every repository over one database handle: the repositories plugin builds them once for the
 * server (app.repos), a worker process once for itself, and `transaction` builds the same set
 * over one transaction. The plugin's app.repos wraps users and sessions with the session cache:
 * writes to them go through app.repos, not through a transaction's set.
 */
export function createRepositories(db: Kysely<Database>): Repositories {
  return {
    ...repositoriesOf(db),
    transaction: (fn) => db.transaction().execute((trx) => fn(createRepositories(trx), trx)),
  };
}

export type Repositories = ReturnType<typeof repositoriesOf> & {
  /**
   * Runs `fn` with these repositories over one transaction: all of it commits, or none. The
   * transaction itself is handed over too, for what joins it outside the SQL of this folder
   * (the task queue's job, sent in the same commit as its task).
   */
  transaction<T>(fn: (repos: Repositories, trx: Kysely<Database>) => Promise<T>): Promise<T>;
};

function repositoriesOf(db: Kysely<Database>) {
  return {
    audit: createAuditRepository(db),
    books: createBooksRepository(db),
    cutVideos: createCutVideosRepository(db),
    dedupPresets: createDedupPresetsRepository(db),
    idempotencyKeys: createIdempotencyKeysRepository(db),
    loginAttempts: createLoginAttemptsRepository(db),
    notices: createNoticesRepository(db),
    providerSlots: createProviderSlotsRepository(db),
    quotas: createQuotaService(db),
    releaseRecords: createReleasesRepository(db),
    roles: createRolesRepository(db),
    series: createSeriesRepository(db),
    sessions: createSessionsRepository(db),
    speechTryAcks: createSpeechTryAcksRepository(db),
    tickets: createTicketsRepository(db),
    uploads: createUploadsRepository(db),
    users: createUsersRepository(db),
    videoTasks: createVideoTasksRepository(db),
    works: createWorksRepository(db),
    writingTasks: createWritingTasksRepository(db),
  };
}
