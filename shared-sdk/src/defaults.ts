import type { UserInfo } from './contracts/user';

/** The defaults the spec gives, for a user info whose fields are missing. */
export const USER_INFO_DEFAULTS: Omit<UserInfo, 'userId' | 'username'> = {
  nickname: '',
  userData: '',
  phone: '',
  avatar: '',
  draftPath: '',
  status: -1,
  homePageUrl: '',
  functionalLevel: 0,
  registerSource: '',
  invitationCode: '',
  questionnaire: -1,
  feedback: 1,
  templateIds: [],
};
