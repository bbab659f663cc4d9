import type { Role } from '@kol/shared-sdk';

/**
 * The session values a flow remembers its roles in: the spec's `KOL_ROLES`, `KOL_ROLE_IMAGES`
 * and `KOL_CHARACTER_TASK_ID` (the comic flow's store keeps the overseas twins apart; the anime
 * flow's shares the domestic ones), so the role pages need not know which flow they serve.
 */
export interface RoleStore {
  roles: () => Role[];
  setRoles: (roles: Role[]) => void;
  roleImages: () => Record<string, string[]>;
  setRoleImages: (images: Record<string, string[]>) => void;
  setCharacterTaskId: (taskId: string) => void;
}
