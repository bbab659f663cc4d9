import { createHash } from 'node:crypto';
import { rolesIn } from '@kol/shared-sdk/text';
import type { ImageStyle } from '../../library/image-styles';

/** A role as a picture needs it: the fixed description, seed and reference picture. */
export interface RoleLook {
  /** The role's id, when it is a stored role (shots record which roles they show). */
  roleId?: number;
  name: string;
  description: string;
  seed: number;
  /** The reference picture as a file of the data dir; null when the role has none yet. */
  referenceImagePath: string | null;
}

export interface ShotDescription {
  /** What the shot shows (the shot's picture prompt). */
  prompt: string;
  /** Where the roles are looked for by name (the shot's caption). */
  caption: string;
  /** Every role of the work; those named in the caption are the ones present. */
  roles: readonly RoleLook[];
  /**
   * Who speaks in the shot (the text understanding's speakers of its quotations, or the anime
   * storyboard's speaker): present too, even when the caption only says 她 or nothing.
   */
  speakers?: readonly string[];
  style: ImageStyle | null;
  /** Seeds a shot with no role in it, e.g. `<taskId>:<shot index>`: the same shot redraws alike. */
  seedKey: string;
}

export interface BuiltPrompt {
  prompt: string;
  negativePrompt: string;
  seed: number;
  referenceImagePath?: string;
  /** The reference pictures of every present role that has one, lead first. */
  referenceImagePaths: string[];
  /** The roles present, in the order the caption names them. */
  present: RoleLook[];
}

const DESCRIPTION_CHARS = 200;

export const NEGATIVE_PROMPT =
  '低质量，模糊，畸形，多余的手指，文字，水印 (lowres, blurry, deformed, extra fingers, text, watermark)';

/** A seed from a text: the same text, the same seed (a positive 31-bit integer). */
export function stableSeed(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) & 0x7fffffff;
}

// Who is drawn in a shot: the SDK's, the same the comic flow's prompt page shows.
export { rolesIn };

/**
 * A shot's picture request: the shot prompt, then the fixed description of every role present
 * (so each role looks the same in every shot), then the style's words. The seed and the
 * reference picture are the first present role's; a shot without roles gets a stable seed.
 */
export function buildShotPrompt(shot: ShotDescription): BuiltPrompt {
  const named = rolesIn(shot.caption, shot.roles);
  const speaking = (shot.speakers ?? [])
    .map((speaker) => shot.roles.find((role) => role.name === speaker))
    .filter((role): role is RoleLook => role !== undefined && !named.includes(role));
  const present = [...named, ...new Set(speaking)];
  const parts = [shot.prompt.trim()];
  const described = present
    .map((role) => {
      const description = role.description.trim().slice(0, DESCRIPTION_CHARS);
      return description ? `${role.name}（${description}）` : role.name;
    })
    .join('；');
  if (described) parts.push(`画面中的角色：${described}`);
  if (shot.style) parts.push(`画风：${shot.style.prompt}`);
  const lead = present[0];
  const reference = lead?.referenceImagePath;
  return {
    prompt: parts.join('\n'),
    negativePrompt: NEGATIVE_PROMPT,
    seed: lead ? lead.seed : stableSeed(shot.seedKey),
    ...(reference ? { referenceImagePath: reference } : {}),
    referenceImagePaths: present.flatMap((role) =>
      role.referenceImagePath ? [role.referenceImagePath] : [],
    ),
    present,
  };
}
