/**
 * A work's text made speakable: no control characters, no blank runs, trimmed lines. The server
 * cleans every text it speaks with it, and the pages that estimate a length clean theirs the same.
 */
export function cleanScript(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) =>
      line
        .replace(/[ \t\u3000]+/g, ' ')
        // Control and format characters (zero-width spaces, BOMs) would be read or drawn oddly.
        .replace(/[\p{Cc}\p{Cf}]/gu, '')
        .trim(),
    )
    .filter(Boolean)
    .join('\n');
}
