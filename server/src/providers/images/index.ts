import type { ImageProviderConfig } from '../../config';
import { createComfyUiProvider } from './comfyui';
import { createOpenAiImageProvider } from './openai';
import type { ImageProvider } from './types';

/** The configured image provider, or null offline (the local looks draw then). */
export function imageProviderFrom(
  config: ImageProviderConfig | null | undefined,
): ImageProvider | null {
  if (!config) return null;
  return config.kind === 'openai'
    ? createOpenAiImageProvider(config)
    : createComfyUiProvider(config);
}
