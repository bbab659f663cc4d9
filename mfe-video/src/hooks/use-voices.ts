import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getTtsList, type Voice } from '@kol/shared-sdk';
import { useListStatus } from './use-list-status';

type VoiceLanguage = 'zh' | 'en' | null;

/**
 * The query key of the voices of a language: `['voices']` is every voice, `['voices', 'zh']`
 * those that read Chinese. Invalidating `['voices']` reaches them all.
 */
export const voicesKey = (language: VoiceLanguage) =>
  language ? (['voices', language] as const) : (['voices'] as const);

/** One empty list, so a consumer's effect on the list does not run again on every render. */
const NO_VOICES: Voice[] = [];

/**
 * The voices that read a language (`tts_list`): `zh` or `en`; provider voices read both. One
 * query per language, shared by every picker and page that asks: a page with a picker per
 * character loads them once. While another language is asked for, the previous list stays.
 */
export function useVoices(language: VoiceLanguage) {
  const query = useQuery({
    queryKey: voicesKey(language),
    queryFn: ({ signal }) => getTtsList(language ? { language } : {}, { signal }),
    placeholderData: keepPreviousData,
  });
  return { voices: query.data ?? NO_VOICES, ...useListStatus(query) };
}
