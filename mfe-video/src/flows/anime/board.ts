import { ANIME_NARRATOR, type AnimeCamera, type Shot, type WorkDetail } from '@kol/shared-sdk';
import { captionOf, newKey, scriptProblem, scriptText } from './anime-script';

/** Longest scene name the server takes. */
export const MAX_SCENE_CHARS = 30;

/** A storyboard shot as the page edits it: every storyboard field present. */
export interface BoardShot {
  key: string;
  speaker: string;
  line: string;
  camera: AnimeCamera;
  scene: string;
  imagePrompt: string;
  imageUrl: string;
  needsRegeneration: boolean;
  /** Who drew the picture (Shot.imageEngine), kept so a save does not forget it. */
  imageEngine?: string;
  /** The shot's clip and its service or failure (Shot.clip*): a save keeps them as they are. */
  clipUrl?: string;
  clipEngine?: string;
  clipError?: string;
  roleIds: number[];
}

export type BoardField = 'speaker' | 'line' | 'camera' | 'scene' | 'imagePrompt';

/** The parts of a work a save of the board changes: its script and its shots. */
export interface StoryboardParts {
  text: string;
  shots: Shot[];
}

/** The parts of the work a board was last read from or saved as, and its revision. */
export interface BoardBase {
  parts: StoryboardParts;
  revision: number;
}

export const boardOf = (work: WorkDetail): BoardShot[] =>
  work.shots.map((shot) => ({
    key: newKey(),
    speaker: shot.speaker ?? ANIME_NARRATOR,
    line: shot.line ?? shot.caption,
    camera: shot.camera ?? '中景',
    scene: shot.scene ?? '故事场景',
    imagePrompt: shot.imagePrompt,
    imageUrl: shot.imageUrl,
    needsRegeneration: shot.needsRegeneration,
    ...(shot.imageEngine !== undefined ? { imageEngine: shot.imageEngine } : {}),
    ...clipFields(shot),
    roleIds: shot.roleIds,
  }));

/** The clip fields a shot has (a render, or 重新生成动态镜头, wrote them; the page never does). */
function clipFields(shot: Pick<Shot, 'clipUrl' | 'clipEngine' | 'clipError'>) {
  return {
    ...(shot.clipUrl !== undefined ? { clipUrl: shot.clipUrl } : {}),
    ...(shot.clipEngine !== undefined ? { clipEngine: shot.clipEngine } : {}),
    ...(shot.clipError !== undefined ? { clipError: shot.clipError } : {}),
  };
}

/** The work's shots of a board, indexed in order; audio is made by the render. */
export const shotsOf = (board: readonly BoardShot[]): Shot[] =>
  board.map((shot, index) => ({
    index,
    caption: captionOf(shot.speaker.trim(), shot.line.trim()),
    imagePrompt: shot.imagePrompt.trim(),
    roleIds: shot.roleIds,
    imageUrl: shot.imageUrl,
    audioUrl: '',
    durationMs: 0,
    needsRegeneration: shot.needsRegeneration,
    ...(shot.imageEngine !== undefined ? { imageEngine: shot.imageEngine } : {}),
    ...clipFields(shot),
    speaker: shot.speaker.trim(),
    line: shot.line.trim(),
    camera: shot.camera,
    scene: shot.scene.trim(),
  }));

/** The script a board makes: its speakers' lines. */
export const textOf = (shots: readonly Shot[]) =>
  scriptText(shots.map((shot) => ({ speaker: shot.speaker ?? '', text: shot.line ?? '' })));

/** A work's text and shots as a save of the board sends them (so a change is a real change). */
export const partsOf = (work: WorkDetail): StoryboardParts => ({
  text: work.text,
  shots: shotsOf(boardOf(work)),
});

/**
 * A work's shots onto the page's board, each shot keeping its key when the count is the same:
 * the key is what a picture being drawn for the shot lands by.
 */
export function boardAfter(board: readonly BoardShot[], work: WorkDetail): BoardShot[] {
  const next = boardOf(work);
  if (next.length !== board.length) return next;
  return next.map((shot, i) => ({ ...shot, key: board[i]?.key ?? shot.key }));
}

/** Why a board cannot be saved, in Chinese, or null when it can. */
export function boardProblem(board: readonly BoardShot[]): string | null {
  const lines = board.map((shot) => ({ speaker: shot.speaker, text: shot.line }));
  const problem = scriptProblem(lines);
  if (problem) return problem.replace(/第 (\d+) 行/, '第 $1 个镜头');
  for (const [i, shot] of board.entries()) {
    if (!shot.scene.trim()) return `第 ${i + 1} 个镜头的场景为空，请填写`;
    if (shot.scene.trim().length > MAX_SCENE_CHARS) {
      return `第 ${i + 1} 个镜头的场景超过 ${MAX_SCENE_CHARS} 个字`;
    }
    if (!shot.imagePrompt.trim()) return `第 ${i + 1} 个镜头的画面描述为空，请填写`;
  }
  return null;
}
