import fp from 'fastify-plugin';
import { createAuditRepository, type AuditRepository } from '../../repositories/audit';
import { createBooksRepository, type BooksRepository } from '../../repositories/books';
import { createCutVideosRepository, type CutVideosRepository } from '../../repositories/cut-videos';
import {
  createLoginAttemptsRepository,
  type LoginAttemptsRepository,
} from '../../repositories/login-attempts';
import { createNoticesRepository, type NoticesRepository } from '../../repositories/notices';
import { createReleasesRepository, type ReleasesRepository } from '../../repositories/releases';
import { createRolesRepository, type RolesRepository } from '../../repositories/roles';
import { createSessionsRepository, type SessionsRepository } from '../../repositories/sessions';
import { createTicketsRepository, type TicketsRepository } from '../../repositories/tickets';
import { createUploadsRepository, type UploadsRepository } from '../../repositories/uploads';
import { createUsersRepository, type UsersRepository } from '../../repositories/users';
import { createWorksRepository, type WorksRepository } from '../../repositories/works';
import {
  createWritingTasksRepository,
  type WritingTasksRepository,
} from '../../repositories/writing-tasks';
import {
  createSpeechTryAcksRepository,
  type SpeechTryAcksRepository,
} from '../../repositories/speech-try-acks';
import { SessionCache } from '../../repositories/session-cache';

declare module 'fastify' {
  interface FastifyInstance {
    users: UsersRepository;
    sessions: SessionsRepository;
    tickets: TicketsRepository;
    /** Login attempt counters per (username, IP) and per IP (repositories/login-attempts.ts). */
    loginAttempts: LoginAttemptsRepository;
    notices: NoticesRepository;
    audit: AuditRepository;
    /** SQL of remote releases; routes use `app.releases` (the service) instead. */
    releaseRecords: ReleasesRepository;
    uploads: UploadsRepository;
    sessionCache: SessionCache;
    books: BooksRepository;
    writingTasks: WritingTasksRepository;
    works: WorksRepository;
    /** Cut-video segment data of works (repositories/cut-videos.ts). */
    cutVideos: CutVideosRepository;
    /** Acknowledged failures of async_tts_try (repositories/speech-try-acks.ts). */
    speechTryAcks: SpeechTryAcksRepository;
    /** Roles and role tasks (init_task) of the video pages. */
    roles: RolesRepository;
  }
}

/** Every SQL statement the routes need lives behind these. */
export default fp(
  async (app) => {
    const sessionCache = new SessionCache(app.config.sessionCacheMs);
    const users = createUsersRepository(app.db);
    const sessions = createSessionsRepository(app.db);
    // Every write to a user or a session drops what this process remembers of it.
    app.decorate('sessionCache', sessionCache);
    app.decorate('users', {
      ...users,
      async update(id, patch) {
        sessionCache.forgetUser(id);
        return users.update(id, patch);
      },
    } satisfies UsersRepository);
    app.decorate('sessions', {
      ...sessions,
      async delete(id) {
        sessionCache.forgetSession(id);
        return sessions.delete(id);
      },
      async deleteForUser(userId) {
        sessionCache.forgetUser(userId);
        return sessions.deleteForUser(userId);
      },
    } satisfies SessionsRepository);
    app.decorate('tickets', createTicketsRepository(app.db));
    app.decorate('loginAttempts', createLoginAttemptsRepository(app.db));
    app.decorate('notices', createNoticesRepository(app.db));
    app.decorate('audit', createAuditRepository(app.db));
    app.decorate('releaseRecords', createReleasesRepository(app.db));
    app.decorate('uploads', createUploadsRepository(app.db));
    app.decorate('books', createBooksRepository(app.db));
    app.decorate('writingTasks', createWritingTasksRepository(app.db));
    app.decorate('works', createWorksRepository(app.db));
    app.decorate('cutVideos', createCutVideosRepository(app.db));
    app.decorate('speechTryAcks', createSpeechTryAcksRepository(app.db));
    app.decorate('roles', createRolesRepository(app.db));
  },
  { name: 'repositories', dependencies: ['database'] },
);
