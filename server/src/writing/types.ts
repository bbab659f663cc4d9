import type { TextKind, WritingMode } from '@kol/shared-sdk/contracts';

/** One piece of source material: a chapter, or the user's prompt / outline / pasted text. */
export interface SourcePart {
  title: string;
  text: string;
}

/** What a provider is asked to write. Built by the task service from a GenerateTextBody. */
export interface TextRequest {
  /** One-click article: the kind of copy over chapters. Absent in /create modes. */
  kind?: TextKind;
  /** Creative writing mode; absent for the one-click article. */
  mode?: WritingMode;
  /** The book the chapters come from, when they do. */
  bookTitle?: string;
  genre?: string;
  tone?: string;
  /** Wanted length in Chinese characters (roughly). */
  length: number;
  source: SourcePart[];
}

/** A text generator. `stream` yields the text in pieces as it is written. */
export interface TextProvider {
  /** Short machine name: `local` or `openai`. */
  name: string;
  /** Shown to the user as the engine that wrote the text (Chinese). */
  label: string;
  stream(request: TextRequest, signal: AbortSignal): AsyncIterable<string>;
}
