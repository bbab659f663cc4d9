import { createHash } from 'node:crypto';
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
  style: ImageStyle | null;
  /** Seeds a shot with no role in it, e.g. `<taskId>:<shot index>`: the same shot redraws alike. */
  seedKey: string;
}

export interface BuiltPrompt {
  prompt: string;
  negativePrompt: string;
  seed: number;
  referenceImagePath?: string;
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

/**
 * The roles named in a text, in the order it first names them. A name inside a longer name
 * found at the same place (林 in 林动) does not count on its own there.
 */
export function rolesIn(text: string, roles: readonly RoleLook[]): RoleLook[] {
  const found: Array<{ role: RoleLook; at: number }> = [];
  const longestFirst = [...roles]
    .filter((r) => r.name)
    .sort((a, b) => b.name.length - a.name.length);
  const taken: Array<[number, number]> = [];
  for (const role of longestFirst) {
    let at = text.indexOf(role.name);
    let first = -1;
    while (at >= 0) {
      const end = at + role.name.length;
      if (!taken.some(([start, stop]) => at >= start && end <= stop)) {
        taken.push([at, end]);
        if (first < 0) first = at;
      }
      at = text.indexOf(role.name, at + 1);
    }
    if (first >= 0) found.push({ role, at: first });
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.role);
}

/**
 * A shot's picture request: the shot prompt, then the fixed description of every role present
 * (so each role looks the same in every shot), then the style's words. The seed and the
 * reference picture are the first present role's; a shot without roles gets a stable seed.
 */
export function buildShotPrompt(shot: ShotDescription): BuiltPrompt {
  const present = rolesIn(shot.caption, shot.roles);
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
    present,
  };
}
