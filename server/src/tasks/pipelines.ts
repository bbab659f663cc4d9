import { ProjectType } from '@kol/shared-sdk/contracts';
import { comicsPipeline } from '../media/comics-pipeline';
import type { MediaPipelineOptions } from '../media/pipeline-kit';
import type { PipelineRegistry } from './registry';

export type { MediaPipelineOptions } from '../media/pipeline-kit';

/**
 * The production pipelines, one per project type. The server plugin and src/worker.ts both call
 * this, so every process runs the same stages. A type not registered here cannot start a task
 * (gen_video answers 400).
 */
export function registerVideoPipelines(
  registry: PipelineRegistry,
  options: MediaPipelineOptions,
): PipelineRegistry {
  registry.register(ProjectType.comics, comicsPipeline(options));
  // Anime shorts reuse the comic stages until their storyboard stages (speakers, camera) exist.
  registry.register(ProjectType.animeShorts, comicsPipeline(options));
  return registry;
}
