import {
  ProjectType,
  animeChosenVoices,
  estimateDialogueMs,
  estimateMarketMs,
  estimateNarrationMs,
  findMarketTemplate,
  marketNarration,
  narrationVoiceOf,
  type WorkDetail,
} from '@kol/shared-sdk/contracts';

/**
 * Render seconds per second of finished video on the reference machine (docs/deploy.md: a
 * one-minute comic video alone renders in 22 s on 2 cores, 0.37 s a second; rounded up since
 * a second task at once makes each slower). Only the start of a task's remaining time relies on
 * it: the pace measured as the task goes takes over (see RemainingTime).
 */
export const RENDER_SECONDS_PER_VIDEO_SECOND = 0.4;

/**
 * The types whose video lasts as long as their narration, spoken as one voice (the reverse
 * video's footage is looped or cut to it).
 */
const NARRATED: ReadonlySet<number> = new Set([
  ProjectType.comics,
  ProjectType.comicsOverseas,
  ProjectType.decompression,
  ProjectType.decompressionOverseas,
  ProjectType.scroll,
  ProjectType.convert,
]);

/** A script line as the drama and anime works keep them: 「角色：台词」. */
const SCRIPT_LINE = /^([^：:\n]{1,20})[：:](.+)$/;

/**
 * How long the video of a work is expected to last, in milliseconds, by the SDK's speech model
 * (the estimate the pages show): null when its length does not follow from what the work holds
 * (a reverse video without its own script speaks what is read from its clip, later).
 */
export function plannedVideoMs(
  work: Pick<WorkDetail, 'type' | 'text' | 'settings'>,
): number | null {
  const speed = work.settings.speed ?? 1;
  if (work.type === ProjectType.market) {
    const template = findMarketTemplate(work.settings.templateId);
    if (!template) return null;
    const narration = marketNarration({
      template,
      fields: work.settings.templateFields ?? {},
      text: work.text,
      callToAction: work.settings.callToAction,
    });
    const ms = estimateMarketMs(narration, {
      voiceId: narrationVoiceOf(work.type, work.settings.voiceId),
      speed,
    });
    return ms > 0 ? ms : null;
  }
  if (NARRATED.has(work.type)) {
    const ms = estimateNarrationMs(work.text, {
      voiceId: narrationVoiceOf(work.type, work.settings.voiceId),
      speed,
    });
    return ms > 0 ? ms : null;
  }
  if (work.type === ProjectType.realOpera || work.type === ProjectType.animeShorts) {
    const voices =
      work.type === ProjectType.animeShorts
        ? animeChosenVoices(work.settings)
        : (work.settings.roleVoices ?? {});
    const lines = work.text.split('\n').flatMap((row) => {
      const match = SCRIPT_LINE.exec(row.trim());
      if (!match) return [];
      const speaker = (match[1] ?? '').trim();
      return [{ speaker, text: match[2] ?? '', voiceId: voices[speaker] ?? null }];
    });
    const ms = estimateDialogueMs(lines, { speed });
    return ms > 0 ? ms : null;
  }
  return null;
}

/**
 * The remaining time of one run of a task. Two guesses are blended: the planned work (the
 * video's expected length × the render rate) left at this progress, and the pace so far
 * extrapolated (elapsed / progress × what is left); the pace counts more as the task goes, since
 * early progress (a script stage, a quick first picture) says little about what follows. Then
 * the rule a person watching the page expects: the remaining time never goes up. Each value
 * is at most the previous one less the time that has passed since it; an estimate that turns
 * out too short stays at what is left of it (down to 0) instead of jumping back up.
 */
export class RemainingTime {
  private last: { seconds: number; at: number } | null = null;

  constructor(
    private readonly startedAt: Date | null,
    /** The whole task's expected seconds; null: only the pace is known. */
    private readonly plannedSeconds: number | null = null,
  ) {}

  /** Seconds left (not rounded) at `progress` percent, or null before anything is known. */
  remaining(progress: number, now = Date.now()): number | null {
    const done = Math.min(100, Math.max(0, progress)) / 100;
    let guess: number | null;
    if (done >= 1) guess = 0;
    else {
      const elapsed = this.startedAt ? Math.max(0, (now - this.startedAt.getTime()) / 1000) : null;
      const pace = elapsed !== null && done > 0 ? (elapsed / done) * (1 - done) : null;
      const planned = this.plannedSeconds !== null ? this.plannedSeconds * (1 - done) : null;
      if (pace === null) guess = planned;
      else if (planned === null) guess = pace;
      else {
        // Half way through, the measured pace alone decides.
        const trust = Math.min(1, done * 2);
        guess = trust * pace + (1 - trust) * planned;
      }
    }
    const cap = this.last ? Math.max(0, this.last.seconds - (now - this.last.at) / 1000) : null;
    const seconds = guess === null ? cap : cap === null ? guess : Math.min(guess, cap);
    if (seconds === null) return null;
    this.last = { seconds, at: now };
    return seconds;
  }

  /** What the task stores and the pages show: whole seconds. */
  next(progress: number, now = Date.now()): number | null {
    const seconds = this.remaining(progress, now);
    return seconds === null ? null : Math.round(seconds);
  }
}
