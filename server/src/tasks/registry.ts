import { STAGE_NAMES } from '@kol/shared-sdk/contracts';
import type { StageHandler } from './types';

export interface PipelineStage {
  name: string;
  label: string;
  weight: number;
  handler: StageHandler;
}

/**
 * What a task does: a whole video of its type, a merge of a work's cut-video segments, one
 * image, one long speech (async_tts_try), the speech of a work's cut-video segments, an anime
 * short's storyboard (shots and their pictures, before the render). Stored on the task
 * (video_tasks.kind).
 */
export type TaskKind =
  'video' | 'merge' | 'image' | 'clip' | 'speech' | 'cut-speech' | 'storyboard';

/** Registered for every project type of its kind (images and speech do not depend on it). */
export const ANY_TYPE = -1;

/**
 * Which stages, in which order, a task of a kind and a project type runs. The media engine
 * registers the real pipelines; a kind and type with nothing registered cannot start a task.
 */
export class PipelineRegistry {
  private readonly pipelines = new Map<string, PipelineStage[]>();

  register(type: number, handlers: StageHandler[], kind: TaskKind = 'video'): this {
    if (handlers.length === 0) throw new Error(`pipeline of type ${type} has no stages`);
    const names = new Set<string>();
    const stages = handlers.map((handler) => {
      if (!/^[a-z][a-z0-9_-]{0,39}$/.test(handler.name)) {
        throw new Error(`bad stage name "${handler.name}"`);
      }
      if (names.has(handler.name)) throw new Error(`stage "${handler.name}" registered twice`);
      names.add(handler.name);
      const weight = handler.weight ?? 1;
      if (!(weight > 0)) throw new Error(`stage "${handler.name}" needs a positive weight`);
      return {
        name: handler.name,
        label: handler.label ?? STAGE_NAMES[handler.name] ?? handler.name,
        weight,
        handler,
      };
    });
    this.pipelines.set(`${kind}:${type}`, stages);
    return this;
  }

  /** The pipeline of this kind for the type, else the kind's pipeline for any type. */
  get(type: number, kind: string = 'video'): readonly PipelineStage[] | undefined {
    return this.pipelines.get(`${kind}:${type}`) ?? this.pipelines.get(`${kind}:${ANY_TYPE}`);
  }
}
