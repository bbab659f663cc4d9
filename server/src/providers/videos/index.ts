import type { VideoProviderConfig } from '../../config';
import { createComfyUiVideoProvider } from './comfyui';
import { createOpenAiVideoProvider } from './openai';
import type { VideoProvider } from './types';

/** The configured image-to-video provider, or null (the stills are composed with pan and zoom). */
export function videoProviderFrom(
  config: VideoProviderConfig | null | undefined,
): VideoProvider | null {
  if (!config) return null;
  return config.kind === 'openai'
    ? createOpenAiVideoProvider(config)
    : createComfyUiVideoProvider(config);
}
