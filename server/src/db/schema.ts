import type { ColumnType, Generated } from 'kysely';
import type { ReleaseFilesStatus } from '@kol/shared-sdk/contracts';

/**
 * The tables of migrations/*.sql as kysely sees them. Keep in step with the SQL:
 * a column added there is added here.
 */
/** A timestamp the database fills in and nobody changes. */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** A timestamp with a default that updates may set. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A timestamp that every insert gives. */
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string | null;
  nickname: Generated<string>;
  user_data: Generated<string>;
  phone: Generated<string>;
  avatar: Generated<string>;
  draft_path: Generated<string>;
  status: Generated<number>;
  home_page_url: Generated<string>;
  functional_level: Generated<number>;
  register_source: Generated<string>;
  invitation_code: Generated<string>;
  questionnaire: Generated<number>;
  feedback: Generated<number>;
  template_ids: Generated<number[]>;
  disabled: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  created_at: CreatedAt;
  expires_at: RequiredTimestamp;
  ip: Generated<string>;
  user_agent: Generated<string>;
}

export interface UserTicketsTable {
  ticket_hash: string;
  user_id: number;
  expires_at: RequiredTimestamp;
  used_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

/** Login attempt counters per 'ip:…' and 'user-ip:…' key (migration 012). */
export interface LoginAttemptsTable {
  key: string;
  failures: Generated<number>;
  attempts: Generated<number>;
  blocked_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_attempt_at: Timestamp;
}

export interface UserQuotasTable {
  user_id: number;
  quota_type: string;
  gen: Generated<number>;
  reward: Generated<number>;
  merge: Generated<number>;
  last_spent_bucket: string | null;
}

export interface NoticeCategoriesTable {
  id: Generated<number>;
  category_name: string;
  category_icon: Generated<string>;
}

export interface NoticesTable {
  id: Generated<number>;
  category_id: number;
  title: string;
  content: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface NoticeReadsTable {
  user_id: number;
  notice_id: number;
  read_at: CreatedAt;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor: string;
  action: string;
  target: string;
  details: ColumnType<Record<string, unknown>, string, string>;
  created_at: CreatedAt;
}

export interface RemoteReleasesTable {
  id: Generated<number>;
  remote: string;
  version: string;
  created_at: CreatedAt;
  created_by: string;
  note: Generated<string>;
  routes: ColumnType<unknown[], string, string>;
}

export interface RemotePointersTable {
  remote: string;
  active_version: string;
  updated_at: Timestamp;
}

/** Every move of a remote's active pointer (migrations/003_release_ops.sql). */
export interface RemoteActivationsTable {
  id: Generated<number>;
  remote: string;
  version: string;
  from_version: string | null;
  previous_id: number | null;
  action: 'release' | 'rollback' | 'promote';
  actor: string;
  note: Generated<string>;
  activated_at: CreatedAt;
}

export interface RemoteLoadFailuresTable {
  id: Generated<number>;
  remote: string;
  version: string;
  phase: string;
  message: string;
  user_agent: Generated<string>;
  user_id: number | null;
  /** Counts towards an automatic rollback (migrations/016_remote_serves.sql). */
  counted: Generated<boolean>;
  created_at: CreatedAt;
}

/** Which version of a remote the registry gave a signed-in user (migration 016). */
export interface RemoteServesTable {
  remote: string;
  version: string;
  user_id: number;
  first_served_at: CreatedAt;
  last_served_at: Timestamp;
}

/** A canary release beside the stable version (migrations/015_canary_auto_rollback.sql). */
export interface RemoteCanariesTable {
  id: Generated<number>;
  remote: string;
  version: string;
  stable_version: string;
  percent: number;
  started_at: CreatedAt;
  started_by: string;
  note: Generated<string>;
  ended_at: Date | null;
  ended_by: string | null;
  end_reason: CanaryEndReason | null;
}

export type CanaryEndReason = 'promoted' | 'rolled-back' | 'auto-rollback' | 'superseded';

/** A rollback the server made on its own (migrations/015_canary_auto_rollback.sql). */
export interface RemoteAutoRollbacksTable {
  id: Generated<number>;
  remote: string;
  version: string;
  to_version: string;
  canary: boolean;
  users: ColumnType<number[], string, string>;
  errors: ColumnType<Array<{ phase: string; message: string; count: number }>, string, string>;
  window_ms: number;
  /** Migration 016; null on rollbacks recorded before it. */
  served_users: number | null;
  share_percent: number | null;
  files_status: ReleaseFilesStatus | null;
  files_detail: string | null;
  created_at: CreatedAt;
}

export interface UserUploadsTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  name: string;
  /** 'image' | 'video' | 'audio' (migration 010). */
  kind: Generated<UploadKind>;
  /** Probed length of a video or audio upload; null for images. */
  duration_ms: number | null;
  /** SHA-256 of a video or audio upload's bytes (migration 020): a repeat is the same asset. */
  content_sha256: Generated<string | null>;
  created_at: CreatedAt;
}

export type UploadKind = 'image' | 'video' | 'audio';

export interface KolMetaTable {
  key: string;
  value: string;
}

export interface BooksTable {
  id: Generated<number>;
  /** NULL: a sample book everyone sees. */
  user_id: number | null;
  platform_id: Generated<number>;
  title: string;
  author: Generated<string>;
  intro: Generated<string>;
  chapter_count: Generated<number>;
  source_key: string | null;
  source_hash: string | null;
  created_at: CreatedAt;
}

export interface BookChaptersTable {
  id: Generated<number>;
  book_id: number;
  idx: number;
  title: string;
  content: string;
  word_count: number;
}

export interface WritingTasksTable {
  id: string;
  user_id: number;
  kind: string;
  mode: Generated<string>;
  input: ColumnType<Record<string, unknown>, string, string>;
  state: Generated<string>;
  text: Generated<string>;
  engine: Generated<string>;
  error: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  finished_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

export interface WorksTable {
  id: Generated<number>;
  user_id: number;
  type: Generated<number>;
  flag: Generated<number>;
  title: string;
  text: Generated<string>;
  settings: ColumnType<Record<string, unknown>, string | undefined, string>;
  shots: ColumnType<unknown[], string | undefined, string>;
  cover_url: Generated<string>;
  /** Migration 016: one more on every change; a person's save names the one it was based on. */
  revision: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type VideoTaskState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;

/** Migration 021: a book's chapters made into episodes (src/series). */
export interface SeriesTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  type: number;
  narration: string;
  settings: ColumnType<Record<string, unknown>, string | undefined, string>;
  cast_task_id: string;
  cast_engine: Generated<string>;
  state: Generated<string>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SeriesEpisodesTable {
  series_id: number;
  idx: number;
  work_id: number;
  source_title: Generated<string>;
  source_text: string;
  narrated_at: NullableTimestamp;
  reserved_bucket: string | null;
  started_at: NullableTimestamp;
  cancelled_at: NullableTimestamp;
}

export interface VideoTasksTable {
  id: string;
  work_id: number | null;
  user_id: number;
  type: number;
  /** video, merge, image, speech: with the type, picks the pipeline (src/tasks/registry.ts). */
  kind: Generated<string>;
  input: ColumnType<Record<string, unknown>, string | undefined, string>;
  state: Generated<VideoTaskState>;
  stage: Generated<string>;
  progress: Generated<number>;
  eta_seconds: number | null;
  quota_type: string | null;
  quota_bucket: 'gen' | 'reward' | 'merge' | null;
  refunded_at: NullableTimestamp;
  error: string | null;
  outputs: ColumnType<Record<string, unknown>, string | undefined, string>;
  runner_id: string | null;
  /** The pg-boss job that runs it (migration 011); null for tasks older than that. */
  job_id: string | null;
  heartbeat_at: NullableTimestamp;
  started_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface VideoTaskStagesTable {
  task_id: string;
  name: string;
  position: number;
  weight: Generated<number>;
  state: Generated<VideoTaskState>;
  progress: Generated<number>;
  outputs: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  error: string | null;
  attempts: Generated<number>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

/** A group of roles for one video project (migrations/007_roles.sql); not a runner task. */
export interface RoleTasksTable {
  id: string;
  user_id: number;
  type: number;
  work_id: number | null;
  created_at: CreatedAt;
}

export interface RolesTable {
  id: Generated<number>;
  user_id: number;
  task_id: string | null;
  name: string;
  description: Generated<string>;
  reference_image_url: Generated<string>;
  image_urls: ColumnType<string[], string | undefined, string>;
  seed: number;
  lora_id: number | null;
  /** A library role's kind (migration 013); null for a role of a task. */
  type: number | null;
  /** 'female', 'male' or null: not known (migration 019). */
  gender: string | null;
  revision: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** A segment of a cut video as stored (migration 009); see repositories/cut-videos.ts. */
export interface StoredCutSegment {
  text: string;
  materialId: number | null;
  startMs: number;
  endMs: number;
  /**
   * The segment's speech, relative to the media dir: its piece of the finished video's
   * narration (video/cut-from-video.ts), what generate_cut_tts made, or '' (not spoken yet).
   */
  audio: string;
  audioDurationMs: number;
  /** The segment's own picture (a /media/ or /uploads/ URL of the user's); absent: the shot's. */
  imageUrl?: string;
  /** The segment's own voice and speed; absent: those of generate_cut_tts. */
  voiceId?: string;
  speed?: number;
  /** Who says it (a video of characters): captioned 「角色：文案」; absent: a narration. */
  speaker?: string;
}

export interface CutVideosTable {
  work_id: number;
  user_id: number;
  segments: ColumnType<StoredCutSegment[], string, string>;
  voice_id: Generated<string>;
  music_id: number | null;
  music_volume: number | null;
  finished: Generated<boolean>;
  revision: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** A failed async_tts_try the user acknowledged (migration 008). */
export interface SpeechTryAcksTable {
  task_id: string;
  user_id: number;
  acknowledged_at: CreatedAt;
}

/** A user's saved de-duplication presets (`DedupPresets` as JSON). */
export interface DedupPresetsTable {
  user_id: number;
  presets: ColumnType<Record<string, unknown>, string, string>;
  revision: Generated<number>;
  updated_at: Timestamp;
}

/** Keys of the idempotent create calls (018_idempotency_keys.sql). */
export interface IdempotencyKeysTable {
  user_id: number;
  route: string;
  key: string;
  fingerprint: string;
  state: Generated<'running' | 'done'>;
  owner: string;
  locked_until: Timestamp;
  status_code: number | null;
  response: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

/** A call in flight to an outside service (migration 022, src/providers/limits.ts). */
export interface ProviderSlotsTable {
  provider: string;
  slot: number;
  holder: string;
  expires_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  user_tickets: UserTicketsTable;
  login_attempts: LoginAttemptsTable;
  user_quotas: UserQuotasTable;
  notice_categories: NoticeCategoriesTable;
  notices: NoticesTable;
  notice_reads: NoticeReadsTable;
  audit_log: AuditLogTable;
  remote_releases: RemoteReleasesTable;
  remote_pointers: RemotePointersTable;
  remote_load_failures: RemoteLoadFailuresTable;
  remote_serves: RemoteServesTable;
  remote_activations: RemoteActivationsTable;
  remote_canaries: RemoteCanariesTable;
  remote_auto_rollbacks: RemoteAutoRollbacksTable;
  user_uploads: UserUploadsTable;
  kol_meta: KolMetaTable;
  books: BooksTable;
  book_chapters: BookChaptersTable;
  writing_tasks: WritingTasksTable;
  works: WorksTable;
  series: SeriesTable;
  series_episodes: SeriesEpisodesTable;
  video_tasks: VideoTasksTable;
  video_task_stages: VideoTaskStagesTable;
  speech_try_acks: SpeechTryAcksTable;
  cut_videos: CutVideosTable;
  role_tasks: RoleTasksTable;
  roles: RolesTable;
  dedup_presets: DedupPresetsTable;
  idempotency_keys: IdempotencyKeysTable;
  provider_slots: ProviderSlotsTable;
}
