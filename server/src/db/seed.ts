import { sql, type Kysely } from 'kysely';
import { QUOTA_FIELDS, QUOTA_TYPES, TEMPLATE_IDS } from '@kol/shared-sdk/contracts';
import { DEMO_ACCOUNT } from '../config';
import { hashPassword } from '../security/secrets';
import type { Database } from './schema';

const SEED_MARK = 'demo_seeded';
const DEMO_QUOTA = 100;

const CATEGORIES = [
  { name: '系统公告', icon: 'NotificationOutlined' },
  { name: '功能更新', icon: 'RocketOutlined' },
] as const;

const NOTICES = [
  {
    category: '系统公告',
    title: '欢迎使用 KOL Studio 内测版',
    content: '感谢参与内测！使用中遇到问题，请通过页面右上角的“联系我们”反馈。',
  },
  {
    category: '系统公告',
    title: '社区公约',
    content: '请遵守法律法规，尊重知识产权和他人权益，只上传原创或已获授权的素材。',
  },
  {
    category: '功能更新',
    title: '一键成文上线',
    content: '输入书名即可生成推广文案，支持多平台搜索书籍。',
  },
  {
    category: '功能更新',
    title: '视频合成支持滚屏视频',
    content: '新增滚屏视频类型，可在“视频创作”中选择使用。',
  },
] as const;

/**
 * Fills an empty database with the demo account (every template id, functional level 1,
 * 100 of every count, no posting account yet so the shell asks for one), a few notices in
 * two categories. One transaction under an advisory lock with a marker row: two processes
 * starting at once seed once, and a crash half-way leaves nothing behind.
 * Answers whether it seeded now.
 */
export async function seedDemoData(db: Kysely<Database>): Promise<boolean> {
  const passwordHash = await hashPassword(DEMO_ACCOUNT.password);
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('kol_seed:' || current_schema()))`.execute(trx);
    const mark = await trx
      .selectFrom('kol_meta')
      .select('value')
      .where('key', '=', SEED_MARK)
      .executeTakeFirst();
    if (mark) return false;

    const demo = await trx
      .insertInto('users')
      .values({
        username: DEMO_ACCOUNT.username,
        password_hash: passwordHash,
        nickname: '演示用户',
        status: -1,
        functional_level: 1,
        template_ids: [...TEMPLATE_IDS],
        register_source: 'demo',
      })
      .onConflict((oc) => oc.column('username').doNothing())
      .returning('id')
      .executeTakeFirst();

    if (demo) {
      await trx
        .insertInto('user_quotas')
        .values(
          QUOTA_TYPES.map((type) => ({
            user_id: demo.id,
            quota_type: type,
            gen: DEMO_QUOTA,
            reward: QUOTA_FIELDS[type].reward ? DEMO_QUOTA : 0,
            merge: QUOTA_FIELDS[type].merge ? DEMO_QUOTA : 0,
            last_spent_bucket: null,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    }

    const categoryIds = new Map<string, number>();
    for (const category of CATEGORIES) {
      const row = await trx
        .insertInto('notice_categories')
        .values({ category_name: category.name, category_icon: category.icon })
        .onConflict((oc) =>
          oc.column('category_name').doUpdateSet({ category_icon: category.icon }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      categoryIds.set(category.name, row.id);
    }
    for (const notice of NOTICES) {
      const categoryId = categoryIds.get(notice.category);
      if (categoryId === undefined) continue;
      await trx
        .insertInto('notices')
        .values({ category_id: categoryId, title: notice.title, content: notice.content })
        .execute();
    }

    await trx
      .insertInto('kol_meta')
      .values({ key: SEED_MARK, value: new Date().toISOString() })
      .execute();
    return true;
  });
}
