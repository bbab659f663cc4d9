// The answer of a tweets task (submit_tweets_task): one text per chapter, in the book's order,
// each under its chapter's heading. The server writes it and a page cuts it back into chapters:
// the format is written once, here.

/** The heading of one chapter's text: 【第一章 …】 on a line of its own. */
export const tweetHeading = (title: string) => `【${title}】\n`;

/** What separates two chapters' texts. */
export const TWEET_SEPARATOR = '\n\n';

/**
 * A tweets task's text cut back into its chapters' texts, in the order of `titles` (the
 * chapters it was asked for). Each heading is looked for after the one before, so a chapter's
 * text that quotes another heading does not cut it. Null when a heading is missing (the text was
 * not written whole, or not by a tweets task).
 */
export function splitTweets(text: string, titles: readonly string[]): string[] | null {
  const starts: Array<{ at: number; body: number }> = [];
  let from = 0;
  for (const title of titles) {
    const heading = tweetHeading(title);
    const at = text.indexOf(heading, from);
    if (at < 0) return null;
    starts.push({ at, body: at + heading.length });
    from = at + heading.length;
  }
  return starts.map((start, i) => text.slice(start.body, starts[i + 1]?.at ?? text.length).trim());
}
