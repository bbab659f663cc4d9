/** How long the editor waits, how often it asks: the page's defaults (tests pass smaller ones). */
export interface CutEditorTiming {
  /** Edits are saved this long after the last one (debounce). */
  saveDelayMs: number;
  /** A segment's speech task or a picture is asked for this often until it ends. */
  taskPollMs: number;
  /** A merge's progress is asked for this often when its progress stream is gone. */
  progressPollMs: number;
}

export const DEFAULT_TIMING: CutEditorTiming = {
  saveDelayMs: 800,
  taskPollMs: 1000,
  progressPollMs: 2000,
};

/** Uploaded pictures shown a page at a time in the chooser. */
export const UPLOADED_PAGE_SIZE = 12;

/** `tts_audition` speaks at most this many characters. */
export const AUDITION_MAX_CHARS = 300;

export const SPEED_MIN = 0.5;
export const SPEED_MAX = 2;

/**
 * The window of a background loop whose length the library does not give: the server's own
 * default loop length. A chosen loop is used whole (0 to its length): the server refuses a
 * window past the material's end.
 */
export const DEFAULT_LOOP_MS = 8000;
