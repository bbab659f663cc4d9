import type { PipelineRegistry } from './registry';

/**
 * The production pipelines, one per project type. The media engine fills this in; the server
 * plugin and src/worker.ts both call it, so every process runs the same stages.
 */
export function registerVideoPipelines(registry: PipelineRegistry): PipelineRegistry {
  return registry;
}
