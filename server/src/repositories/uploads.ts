import { sql, type Kysely } from 'kysely';
import type { UploadedImage } from '@kol/shared-sdk/contracts';
import type { Database, UploadKind } from '../db/schema';

/** One stored upload of any kind, as the server sees it. */
export interface UploadRow {
  assetId: number;
  url: string;
  name: string;
  kind: UploadKind;
  /** Probed length of a video or audio upload; null for images. */
  durationMs: number | null;
  createTime: string;
}

type Page = { pageIndex: number; pageSize: number };

const COLUMNS = ['id', 'url', 'name', 'kind', 'duration_ms', 'created_at'] as const;

function toRow(row: {
  id: number;
  url: string;
  name: string;
  kind: UploadKind;
  duration_ms: number | null;
  created_at: Date;
}): UploadRow {
  return {
    assetId: row.id,
    url: row.url,
    name: row.name,
    kind: row.kind,
    durationMs: row.duration_ms,
    createTime: row.created_at.toISOString(),
  };
}

/** Who uploaded which file. Every read is scoped by owner: another user's asset is "not found". */
export function createUploadsRepository(db: Kysely<Database>) {
  async function pageOf(userId: number, kind: UploadKind, page: Page) {
    const query = db
      .selectFrom('user_uploads')
      .where('user_id', '=', userId)
      .where('kind', '=', kind);
    const [rows, count] = await Promise.all([
      query
        .select(COLUMNS)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.pageSize)
        .offset((page.pageIndex - 1) * page.pageSize)
        .execute(),
      query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toRow), total: count.total };
  }

  async function findByContent(
    userId: number,
    kind: UploadKind,
    sha256: string,
  ): Promise<UploadRow | null> {
    const row = await db
      .selectFrom('user_uploads')
      .select(COLUMNS)
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('content_sha256', '=', sha256)
      .executeTakeFirst();
    return row ? toRow(row) : null;
  }

  return {
    /** Records an uploaded image (kind 'image'). */
    async record(userId: number, url: string, name: string): Promise<void> {
      await db.insertInto('user_uploads').values({ user_id: userId, url, name }).execute();
    },

    /**
     * Records an uploaded video or audio file and answers its row. With `sha256`, the owner's
     * upload of the same bytes and kind is answered instead when there is one (the file just
     * stored is then the caller's to remove): one file is one asset, however often it is sent,
     * even by two uploads at once (the unique index decides).
     */
    async recordMedia(
      userId: number,
      media: {
        url: string;
        name: string;
        kind: 'video' | 'audio';
        durationMs: number;
        sha256?: string;
      },
    ): Promise<UploadRow> {
      const { sha256 } = media;
      const same = () => (sha256 ? findByContent(userId, media.kind, sha256) : null);
      const earlier = await same();
      if (earlier) return earlier;
      const row = await db
        .insertInto('user_uploads')
        .values({
          user_id: userId,
          url: media.url,
          name: media.name,
          kind: media.kind,
          duration_ms: Math.round(media.durationMs),
          content_sha256: media.sha256 ?? null,
        })
        .onConflict((conflict) =>
          conflict
            .columns(['user_id', 'kind', 'content_sha256'])
            .where('content_sha256', 'is not', null)
            .doNothing(),
        )
        .returning(COLUMNS)
        .executeTakeFirst();
      if (row) return toRow(row);
      // Another upload of the same bytes was recorded between the look and the insert.
      const winner = await same();
      if (!winner) throw new Error('upload recorded neither here nor by the concurrent upload');
      return winner;
    },

    /** The user's upload of these bytes (SHA-256, hex) and kind, or null. */
    findOwnedByContent: findByContent,

    /** The user's upload served at `url`, or null when there is none or it is someone else's. */
    async findOwnedByUrl(userId: number, url: string): Promise<UploadRow | null> {
      const row = await db
        .selectFrom('user_uploads')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .where('url', '=', url)
        .executeTakeFirst();
      return row ? toRow(row) : null;
    },

    /** The user's upload with this asset id, or null when there is none or it is someone else's. */
    async findOwned(userId: number, assetId: number): Promise<UploadRow | null> {
      const row = await db
        .selectFrom('user_uploads')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .where('id', '=', assetId)
        .executeTakeFirst();
      return row ? toRow(row) : null;
    },

    /** A page of one user's uploads of one kind, newest first. */
    listByKind(
      userId: number,
      kind: UploadKind,
      page: Page,
    ): Promise<{ items: UploadRow[]; total: number }> {
      return pageOf(userId, kind, page);
    },

    /**
     * Forgets the user's upload and answers the deleted row (its url), or null when there was
     * none of theirs. The caller deletes the file: the repository does not know the disk.
     */
    async deleteOwned(userId: number, assetId: number): Promise<UploadRow | null> {
      const row = await db
        .deleteFrom('user_uploads')
        .where('user_id', '=', userId)
        .where('id', '=', assetId)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? toRow(row) : null;
    },

    /** A page of one user's uploaded images, newest first (the spec's uploaded_imgs). */
    async list(userId: number, page: Page): Promise<{ items: UploadedImage[]; total: number }> {
      const { items, total } = await pageOf(userId, 'image', page);
      return {
        items: items.map((item) => ({
          url: item.url,
          name: item.name,
          createTime: item.createTime,
        })),
        total,
      };
    },
  };
}

export type UploadsRepository = ReturnType<typeof createUploadsRepository>;
