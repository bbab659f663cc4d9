/**
 * Every route of spec section 2 that a remote serves, so a route whose remote is not built or
 * not reachable shows the error page rather than "not found".
 */
export const SPEC_REMOTE_ROUTES_INSIDE = [
  '/generate',
  '/create',
  '/work',
  '/work/cut/:id',
  '/work/comics',
  '/work/anime',
  '/work/decompression',
  '/work/scroll',
  '/work/convert',
  '/work/market',
  '/work/character',
  '/video',
  '/video/tool',
  '/video/configuration',
  '/video/config',
  '/video/operaConfig',
  '/video/caption',
  '/video/operaCaption',
  '/video/promptWord/:id',
  '/video/operaCharacter',
  '/video/operaScene',
  '/video/character',
  '/convertConfig',
  '/video/cutDuplicates/:id',
  '/video/cutDuplicates/config',
  '/video/decompression',
  '/video/scroll',
  '/user',
  '/video/animeInspiration',
  '/video/animeCaption',
  '/video/animeConfig',
  '/video/animeCharacter',
  '/video/animeStoryboard/:taskId',
  '/video/animeAtcs/:taskId',
];

export const SPEC_REMOTE_ROUTES_OUTSIDE = [
  '/video/short/:taskId',
  '/video/production',
  '/video/duplicatesEdit/:id',
  '/video/cut',
  '/video/market/:segment?/:id?',
  '/tts',
];
