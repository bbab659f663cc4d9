/**
 * The anime short's (type 11) words shared by the server's script and storyboard and the pages
 * that edit them. Plain values: the browser takes them from the package root.
 */

/** The speaker of lines nobody in the story says (the server's anime script uses the same). */
export const ANIME_NARRATOR = '旁白';

/** Camera sizes of an anime storyboard, widest first (the words storyboard artists use). */
export const ANIME_CAMERAS = ['远景', '全景', '中景', '近景', '特写'] as const;
export type AnimeCamera = (typeof ANIME_CAMERAS)[number];

/** Genres the adaptation can be asked to lean towards; the local adaptation ignores them. */
export const ANIME_GENRES = ['都市', '古风', '玄幻', '悬疑', '甜宠', '搞笑'] as const;

/** How long the short should be: about how many lines of script the chat model writes. */
export const ANIME_LENGTHS = {
  short: { label: '短（约 1 分钟）', lines: 12 },
  medium: { label: '中（约 2 分钟）', lines: 24 },
  long: { label: '长（约 4 分钟）', lines: 48 },
} as const;
export type AnimeLength = keyof typeof ANIME_LENGTHS;

/**
 * The voices the creator chose for an anime short's speakers, as the server speaks them: each
 * character's own (`roleVoices`), and the narrator's the work's voice unless it was given one
 * of its own. The speakers left out get the default of their gender (`defaultVoices`).
 */
export function animeChosenVoices(settings: {
  roleVoices?: Readonly<Record<string, string>> | undefined;
  voiceId?: string | undefined;
}): Record<string, string> {
  const chosen = { ...settings.roleVoices };
  if (settings.voiceId && !chosen[ANIME_NARRATOR]) chosen[ANIME_NARRATOR] = settings.voiceId;
  return chosen;
}
