import fp from 'fastify-plugin';
import { createRepositories, type Repositories } from '../../repositories';
import type { AuditRepository } from '../../repositories/audit';
import type { BooksRepository } from '../../repositories/books';
import type { CutVideosRepository } from '../../repositories/cut-videos';
import type { LoginAttemptsRepository } from '../../repositories/login-attempts';
import type { NoticesRepository } from '../../repositories/notices';
import type { ReleasesRepository } from '../../repositories/releases';
import type { RolesRepository } from '../../repositories/roles';
import type { SessionsRepository } from '../../repositories/sessions';
import type { TicketsRepository } from '../../repositories/tickets';
import type { UploadsRepository } from '../../repositories/uploads';
import type { UsersRepository } from '../../repositories/users';
import type { WorksRepository } from '../../repositories/works';
import type { WritingTasksRepository } from '../../repositories/writing-tasks';
import type { SpeechTryAcksRepository } from '../../repositories/speech-try-acks';
import { SessionCache } from '../../repositories/session-cache';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every repository (repositories/index.ts), with `transaction` over all of them. */
    repos: Repositories;
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
    const built = createRepositories(app.db);
    const { users, sessions } = built;
    // Every write to a user or a session drops what this process remembers of it.
    const repos: Repositories = {
      ...built,
      users: {
        ...users,
        async update(id, patch) {
          sessionCache.forgetUser(id);
          return users.update(id, patch);
        },
      } satisfies UsersRepository,
      sessions: {
        ...sessions,
        async delete(id) {
          sessionCache.forgetSession(id);
          return sessions.delete(id);
        },
        async deleteForUser(userId) {
          sessionCache.forgetUser(userId);
          return sessions.deleteForUser(userId);
        },
      } satisfies SessionsRepository,
    };
    // Built once: the routes use them by name, services and pipelines take app.repos whole.
    app.decorate('repos', repos);
    app.decorate('sessionCache', sessionCache);
    app.decorate('users', repos.users);
    app.decorate('sessions', repos.sessions);
    app.decorate('tickets', repos.tickets);
    app.decorate('loginAttempts', repos.loginAttempts);
    app.decorate('notices', repos.notices);
    app.decorate('audit', repos.audit);
    app.decorate('releaseRecords', repos.releaseRecords);
    app.decorate('uploads', repos.uploads);
    app.decorate('books', repos.books);
    app.decorate('writingTasks', repos.writingTasks);
    app.decorate('works', repos.works);
    app.decorate('cutVideos', repos.cutVideos);
    app.decorate('speechTryAcks', repos.speechTryAcks);
    app.decorate('roles', repos.roles);
  },
  { name: 'repositories', dependencies: ['database'] },
);
