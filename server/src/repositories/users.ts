import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { UserInfo } from '@kol/shared-sdk/contracts';
import type { Database, UsersTable } from '../db/schema';

export type UserRecord = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserPatch = Omit<Updateable<UsersTable>, 'id' | 'created_at' | 'updated_at'>;

/** The user info of spec section 3, as every user call answers it. */
export function toUserInfo(user: UserRecord): UserInfo {
  return {
    userId: user.id,
    username: user.username,
    nickname: user.nickname,
    userData: user.user_data,
    phone: user.phone,
    avatar: user.avatar,
    draftPath: user.draft_path,
    status: user.status,
    homePageUrl: user.home_page_url,
    functionalLevel: user.functional_level,
    registerSource: user.register_source,
    invitationCode: user.invitation_code,
    questionnaire: user.questionnaire,
    feedback: user.feedback,
    templateIds: user.template_ids,
  };
}

export function createUsersRepository(db: Kysely<Database>) {
  return {
    findById(id: number): Promise<UserRecord | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    findByUsername(username: string): Promise<UserRecord | undefined> {
      return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
    },

    /** Creates the user, or answers undefined when the username is taken. */
    create(user: NewUser): Promise<UserRecord | undefined> {
      return db
        .insertInto('users')
        .values(user)
        .onConflict((oc) => oc.column('username').doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    update(id: number, patch: UserPatch): Promise<UserRecord | undefined> {
      return db
        .updateTable('users')
        .set({ ...patch, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    list(): Promise<UserRecord[]> {
      return db.selectFrom('users').selectAll().orderBy('id').execute();
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
