import type { Gender } from './gender';

/**
 * Which voice each speaker of a dialogue (anime short, real-person drama) speaks with when the
 * creator chose none: written once here, because the server speaks with it and the voice pages
 * preselect the same, so what a page shows is what is heard.
 */

/** What the rule needs of a voice (the contract's Voice, or the server's offline list). */
export interface GenderedVoice {
  voiceId: string;
  gender: 'female' | 'male' | 'neutral';
}

export interface DefaultVoice {
  voiceId: string;
  /**
   * How many speakers had this voice before this one (0: the first). The server speaks a
   * second user of a voice at another speed, so two roles never sound the same.
   */
  nth: number;
}

/**
 * The voices of the speakers, in order. A speaker whose chosen voice is known keeps it;
 * every other one gets, in speaking order, the least used voice of its gender (the earliest in
 * `voices` on a tie), so a scholar speaks in a man's voice and two women in two different
 * women's voices as long as there are. A speaker of unknown gender (or of a gender `voices`
 * lacks) gets the least used voice with female and male alternating.
 */
export function defaultVoices(
  speakers: readonly string[],
  chosen: Readonly<Record<string, string | undefined>>,
  voices: readonly GenderedVoice[],
  genderOf: (speaker: string) => Gender | null | undefined,
  /** Which chosen voices may speak; by default those of `voices` (the server knows more). */
  isKnown?: (voiceId: string) => boolean,
): Record<string, DefaultVoice> {
  const female = voices.filter((voice) => voice.gender === 'female').map((v) => v.voiceId);
  const male = voices.filter((voice) => voice.gender === 'male').map((v) => v.voiceId);
  const alternating: string[] = [];
  for (let i = 0; i < Math.max(female.length, male.length); i++) {
    const f = female[i];
    const m = male[i];
    if (f) alternating.push(f);
    if (m) alternating.push(m);
  }
  for (const voice of voices) {
    if (!alternating.includes(voice.voiceId)) alternating.push(voice.voiceId);
  }
  const listed = new Set(voices.map((voice) => voice.voiceId));
  const known = isKnown ?? ((voiceId: string) => listed.has(voiceId));
  const uses = new Map<string, number>();
  const result: Record<string, DefaultVoice> = {};
  const take = (speaker: string, voiceId: string) => {
    const nth = uses.get(voiceId) ?? 0;
    uses.set(voiceId, nth + 1);
    result[speaker] = { voiceId, nth };
  };
  /** The least used of `ids`, the earliest on a tie (a stable sort keeps their order). */
  const leastUsed = (ids: readonly string[]) =>
    [...ids].sort((a, b) => (uses.get(a) ?? 0) - (uses.get(b) ?? 0))[0];
  const unassigned: string[] = [];
  for (const speaker of new Set(speakers)) {
    const voiceId = chosen[speaker];
    if (voiceId && known(voiceId)) take(speaker, voiceId);
    else unassigned.push(speaker);
  }
  for (const speaker of unassigned) {
    const gender = genderOf(speaker);
    const own = gender === 'female' ? female : gender === 'male' ? male : [];
    const voiceId = leastUsed(own.length > 0 ? own : alternating);
    if (voiceId) take(speaker, voiceId);
  }
  return result;
}

/** `defaultVoices` as the pages keep it: a voice id per speaker. */
export function defaultVoiceIds(...args: Parameters<typeof defaultVoices>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(defaultVoices(...args)).map(([speaker, v]) => [speaker, v.voiceId]),
  );
}
