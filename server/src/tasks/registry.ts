import type { StageHandler } from './types';
import { STAGE_LABELS } from './errors';

export interface PipelineStage {
  name: string;
  label: string;
  weight: number;
  handler: StageHandler;
}

/**
 * Which stages, in which order, a project type runs. The media engine registers the real
 * pipelines; a type with nothing registered cannot start a task.
 */
export class PipelineRegistry {
  private readonly pipelines = new Map<number, PipelineStage[]>();

  register(type: number, handlers: StageHandler[]): this {
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
        label: handler.label ?? STAGE_LABELS[handler.name] ?? handler.name,
        weight,
        handler,
      };
    });
    this.pipelines.set(type, stages);
    return this;
  }

  get(type: number): readonly PipelineStage[] | undefined {
    return this.pipelines.get(type);
  }
}
