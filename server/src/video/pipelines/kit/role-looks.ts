import type { RoleLook } from './prompt';
import type { RoleRecord } from '../../../repositories/roles';
import { pictureFile, type PictureDirs } from '../../../uploads/picture-file';

/** A role as its pictures need it: the reference picture resolved to a file of the data dir. */
export async function roleLook(
  role: RoleRecord,
  userId: number,
  dirs: PictureDirs,
): Promise<RoleLook> {
  const reference = role.referenceImageUrl
    ? await pictureFile(role.referenceImageUrl, userId, dirs)
    : null;
  return {
    roleId: role.roleId,
    name: role.name,
    description: role.description,
    seed: role.seed,
    referenceImagePath: reference,
  };
}
