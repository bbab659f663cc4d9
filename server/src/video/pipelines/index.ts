import { ProjectType } from '@kol/shared-sdk/contracts';
import { animePipeline, animeStoryboardPipeline } from './anime/pipeline';
import { clipPipeline } from './clip/pipeline';
import { comicsPipeline } from './comics/pipeline';
import { convertPipeline } from './convert/pipeline';
import { decompressionPipeline } from './decompression/pipeline';
import { imagePipeline } from './image/pipeline';
import { marketPipeline } from './market/pipeline';
import { CUT_TTS_TYPES, MERGE_TYPES, cutSpeechPipeline, mergePipeline } from './merge/pipeline';
import { operaPipeline } from './opera/pipeline';
import type { MediaPipelineOptions } from './kit/pipeline';
import { scrollPipeline } from './scroll/pipeline';
import { speechTryPipeline } from './speech/pipeline';
import type { AppConfig } from '../../config';
import type { Repositories } from '../../repositories';
import type { Providers } from '../../providers';
import { providersWithLimits } from '../provider-limits';
import type { MediaStores } from '../../storage';
import { ANY_TYPE, type PipelineRegistry } from '../../tasks/registry';

export type { MediaPipelineOptions } from './kit/pipeline';

/** What every pipeline is built with, from the configuration: the same in every process. */
export function pipelineOptionsFrom(
  config: AppConfig,
  repos: Repositories,
  providers: Providers,
  stores: MediaStores,
): MediaPipelineOptions {
  const renderSize = config.videoTasks?.renderSize;
  const renderPercent = config.videoTasks?.renderPercent;
  return {
    repos,
    mediaDir: config.mediaDir,
    stores,
    ...(renderSize ? { renderSize } : {}),
    ...(renderPercent && renderPercent !== 100 ? { renderPercent } : {}),
    // Every pipeline's calls share the installation's limits with every other process.
    providers: providersWithLimits(config, repos.providerSlots, providers),
  };
}

/**
 * The production pipelines, one per project type. The video plugin and the worker process
 * (src/video/plugin.ts, src/video/worker.ts) both call this, so every process runs the same
 * stages. A type not registered here cannot start a task
 * (gen_video answers 400).
 */
export function registerVideoPipelines(
  registry: PipelineRegistry,
  options: MediaPipelineOptions,
): PipelineRegistry {
  registry.register(ProjectType.comics, comicsPipeline(options));
  // Overseas comics: the same stages, in English (the script stage translates when it can).
  registry.register(ProjectType.comicsOverseas, comicsPipeline(options));
  registry.register(ProjectType.animeShorts, animePipeline(options));
  // anime_storyboard: the anime short's shots and pictures before its render (no count).
  registry.register(ProjectType.animeShorts, animeStoryboardPipeline(options), 'storyboard');
  registry.register(ProjectType.market, marketPipeline(options));
  registry.register(ProjectType.convert, convertPipeline(options));
  registry.register(ProjectType.realOpera, operaPipeline(options));
  registry.register(ProjectType.decompression, decompressionPipeline(options));
  registry.register(ProjectType.decompressionOverseas, decompressionPipeline(options));
  registry.register(ProjectType.scroll, scrollPipeline(options));
  // Cut videos: send_merge_request renders the edited segments (types with a merge count), and
  // generate_cut_tts speaks them.
  for (const type of MERGE_TYPES) registry.register(type, mergePipeline(options), 'merge');
  for (const type of CUT_TTS_TYPES) {
    registry.register(type, cutSpeechPipeline(options), 'cut-speech');
  }
  // async_tts_try: long text to speech, a task of no work for any type (spends no count).
  registry.register(ANY_TYPE, speechTryPipeline(options), 'speech');
  // gen_img and re_gen_img: one picture (a shot, a role portrait), for any type, no count.
  registry.register(ANY_TYPE, imagePipeline(options), 'image');
  // gen_clip: one shot's clip made again from its picture (no count).
  registry.register(ANY_TYPE, clipPipeline(options), 'clip');
  return registry;
}
