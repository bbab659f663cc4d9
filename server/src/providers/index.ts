import type { AppConfig } from '../config';
import type { Metrics } from '../ops/metrics';
import { meteredProviders } from '../ops/metered-providers';
import { chatModelFrom, type ChatModel } from './chat';
import { imageProviderFrom } from './images';
import type { ImageProvider } from './images/types';
import { speechFrom, type Speech } from './speech';
import { createOpenAiTextModel, type TextModel } from './text';
import { transcriberFrom, type Transcriber } from './transcription';
import { videoProviderFrom } from './videos';
import type { VideoProvider } from './videos/types';

/**
 * Every outside service the server can use, chosen once from the configuration (env.ts): the
 * server plugin decorates them as `app.providers`, a worker process builds the same. A null is
 * a service not configured, and each caller has its offline way instead.
 */
export interface Providers {
  /** The streaming text model (writing's copy); null: writing's own local engine writes. */
  text: TextModel | null;
  /** Structured answers (scripts, storyboards, roles, translation); null: local rules. */
  chat: ChatModel | null;
  /** Pictures; null: the local looks draw them (video/engine/looks). */
  images: ImageProvider | null;
  /** Clips from the shots' pictures (image to video); null: stills with pan and zoom. */
  videos: VideoProvider | null;
  /** The configured voices when there are some, and the offline voices always. */
  speech: Speech;
  /** Speech to text for reverse videos; null: only a video's own subtitle track is read. */
  transcription: Transcriber | null;
}

export type ProviderSettings = Pick<AppConfig, 'llm' | 'images' | 'videos' | 'tts' | 'transcribe'>;

/** The providers of the configuration; with `metrics`, every call counted (ops/metered-providers.ts). */
export function providersFrom(config: ProviderSettings, metrics?: Metrics): Providers {
  const providers: Providers = {
    text: config.llm ? createOpenAiTextModel(config.llm) : null,
    chat: chatModelFrom(config),
    images: imageProviderFrom(config.images),
    videos: videoProviderFrom(config.videos),
    speech: speechFrom(config.tts),
    transcription: transcriberFrom(config.transcribe),
  };
  return metrics ? meteredProviders(providers, metrics) : providers;
}
