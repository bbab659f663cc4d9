import type { OperaDraftScene } from './draft';
import { newLine, newScene, type OperaLine } from './opera-flow';

/**
 * The script editor's changes, each a pure function from the scenes to the new scenes, so the
 * page applies them through the draft (remembered at once) and tests can reason about them.
 */

type Scenes = readonly OperaDraftScene[];

function moved<T>(items: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

const withScene = (
  scenes: Scenes,
  index: number,
  change: (s: OperaDraftScene) => OperaDraftScene,
) => scenes.map((scene, i) => (i === index ? change(scene) : scene));

/** A new scene at the end, with one empty line to fill in. */
export function addScene(scenes: Scenes): OperaDraftScene[] {
  return [...scenes, newScene()];
}

export function removeScene(scenes: Scenes, index: number): OperaDraftScene[] {
  return scenes.filter((_, i) => i !== index);
}

export function moveScene(scenes: Scenes, index: number, by: -1 | 1): OperaDraftScene[] {
  return moved(scenes, index, by);
}

/**
 * A new line at the end of a scene. Its speaker is the one who spoke before the last line, as a
 * dialogue usually alternates between two characters; the creator changes it when it does not.
 */
export function addLine(scenes: Scenes, sceneIndex: number): OperaDraftScene[] {
  return withScene(scenes, sceneIndex, (scene) => {
    const speakers = scene.lines.map((line) => line.speaker.trim()).filter(Boolean);
    const last = speakers.at(-1);
    const other = [...speakers].reverse().find((speaker) => speaker !== last);
    return { ...scene, lines: [...scene.lines, newLine(other ?? '')] };
  });
}

export function editLine(
  scenes: Scenes,
  sceneIndex: number,
  lineIndex: number,
  patch: Partial<Pick<OperaLine, 'speaker' | 'text'>>,
): OperaDraftScene[] {
  return withScene(scenes, sceneIndex, (scene) => ({
    ...scene,
    lines: scene.lines.map((line, j) => (j === lineIndex ? { ...line, ...patch } : line)),
  }));
}

export function removeLine(scenes: Scenes, sceneIndex: number, lineIndex: number) {
  return withScene(scenes, sceneIndex, (scene) => ({
    ...scene,
    lines: scene.lines.filter((_, j) => j !== lineIndex),
  }));
}

export function moveLine(scenes: Scenes, sceneIndex: number, lineIndex: number, by: -1 | 1) {
  return withScene(scenes, sceneIndex, (scene) => ({
    ...scene,
    lines: moved(scene.lines, lineIndex, by),
  }));
}

/** Every line of one character given to another name (the character page's rename). */
export function renameSpeaker(scenes: Scenes, from: string, to: string): OperaDraftScene[] {
  return scenes.map((scene) => ({
    ...scene,
    lines: scene.lines.map((line) =>
      line.speaker.trim() === from ? { ...line, speaker: to } : line,
    ),
  }));
}
