import type { ReactElement } from 'react';
import { AnimeAtcsPage } from './anime-atcs-page';
import { AnimeCaptionPage } from './anime-caption-page';
import { AnimeCharacterPage } from './anime-character-page';
import { AnimeConfigPage } from './anime-config-page';
import { AnimeInspirationPage } from './anime-inspiration-page';
import { AnimeStoryboardPage } from './anime-storyboard-page';
import { CaptionPage } from './caption-page';
import { CharacterPage } from './character-page';
import { ComicConfigPage } from './comic-config-page';
import { ConvertConfigPage } from './convert-config-page';
import { DedupClipPage } from './dedup-clip-page';
import { DedupConfigPage } from './dedup-config-page';
import { DecompressionPage } from './decompression-page';
import { OperaCaptionPage } from './opera-caption-page';
import { OperaCharacterPage } from './opera-character-page';
import { OperaConfigPage } from './opera-config-page';
import { OperaScenePage } from './opera-scene-page';
import { ProductionPage } from './production-page';
import { MarketPage } from './market-page';
import { PromptWordPage } from './prompt-word-page';
import { ScrollPage } from './scroll-page';
import { SeriesNewPage } from './series-new-page';
import { SeriesPage } from './series-page';
import { ShortPage } from './short-page';
import { ToolsPage } from './tools-page';
import { TtsPage } from './tts-page';
import { VideoHubPage } from './video-hub-page';

/** The page of every route claim in `routes.json`, by claim path. */
export const PAGES: ReadonlyMap<string, ReactElement> = new Map([
  ['/video', <VideoHubPage />],
  ['/video/config', <ComicConfigPage />],
  ['/video/configuration', <ComicConfigPage />],
  ['/video/caption', <CaptionPage />],
  ['/video/character', <CharacterPage />],
  ['/video/promptWord/:id', <PromptWordPage />],
  ['/video/production', <ProductionPage />],
  ['/video/short/:taskId', <ShortPage />],
  ['/video/tool', <ToolsPage />],
  ['/tts', <TtsPage />],
  ['/video/operaConfig', <OperaConfigPage />],
  ['/video/operaCaption', <OperaCaptionPage />],
  ['/video/operaCharacter', <OperaCharacterPage />],
  ['/video/operaScene', <OperaScenePage />],
  ['/video/animeInspiration', <AnimeInspirationPage />],
  ['/video/animeCaption', <AnimeCaptionPage />],
  ['/video/animeConfig', <AnimeConfigPage />],
  ['/video/animeCharacter', <AnimeCharacterPage />],
  ['/video/animeStoryboard/:taskId', <AnimeStoryboardPage />],
  ['/video/animeAtcs/:taskId', <AnimeAtcsPage />],
  ['/convertConfig', <ConvertConfigPage />],
  ['/video/cutDuplicates/config', <DedupConfigPage />],
  ['/video/cutDuplicates/:id', <DedupClipPage />],
  ['/video/duplicatesEdit/:id', <DedupClipPage outside />],
  ['/video/decompression', <DecompressionPage />],
  ['/video/scroll', <ScrollPage />],
  ['/video/market/:segment?/:id?', <MarketPage />],
  ['/video/series', <SeriesNewPage />],
  ['/video/series/:id', <SeriesPage />],
]);
