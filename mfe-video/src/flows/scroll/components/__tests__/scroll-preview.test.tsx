import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { ScrollPreview } from '../scroll-preview';

/** The text: a wrap by width alone cut 「镇/上的客栈」 and 「所/有的狗」. */
const TEXT =
  '傍晚时分，他才终于找到了镇上的客栈，要了一间上房。\n那天夜里风很大，村子里头所有的狗都在狂吠，叫个不停。';
const WORDS = ['镇上', '客栈', '所有'];

/** The words a line ending falls inside (lines laid end to end over the text, paragraphs too). */
function wordsCut(lines: string[]): string[] {
  const cut: string[] = [];
  let at = 0;
  const ends: number[] = [];
  for (const line of lines.slice(0, -1)) {
    at += line.length;
    ends.push(at);
  }
  const joined = lines.join('');
  for (const word of WORDS) {
    for (let i = joined.indexOf(word); i >= 0; i = joined.indexOf(word, i + 1)) {
      if (ends.some((end) => end > i && end < i + word.length)) cut.push(word);
    }
  }
  return cut;
}

const columnLines = () => (screen.getByTestId('scroll-column').textContent ?? '').split('\n');

describe('the scroll preview', () => {
  it('shows the render’s lines, never ending one inside a word, and lets the browser wrap none', () => {
    render(<ScrollPreview text={TEXT} speed={1} voiceId={null} aspect="9:16" />);
    const lines = columnLines();
    // The lines the server's scroll test expects of its column at 9:16.
    expect(lines).toEqual([
      '傍晚时分，他才终于找到了',
      '镇上的客栈，要了一间上房。',
      '',
      '那天夜里风很大，',
      '村子里头所有的狗都在狂吠，',
      '叫个不停。',
    ]);
    expect(wordsCut(lines.filter(Boolean))).toEqual([]);
    const column = screen.getByTestId('scroll-column');
    expect(column.style.whiteSpace).toBe('pre');
    // Glyphs of the render's share of the frame: 13 of them fit the 88 % column of 180 px.
    expect(parseFloat(column.style.fontSize) * 13).toBeLessThanOrEqual(180 * 0.88);
  });

  it('the check can fail: a wrap by width alone, 13 a line, cuts the issue’s words', () => {
    const naive = TEXT.split('\n').flatMap((paragraph) =>
      Array.from({ length: Math.ceil(paragraph.length / 13) }, (_, i) =>
        paragraph.slice(i * 13, i * 13 + 13),
      ),
    );
    expect(wordsCut(naive)).toEqual(['镇上', '所有']);
  });

  it('lays the text out again at the landscape limit', () => {
    render(<ScrollPreview text={TEXT} speed={1} voiceId={null} aspect="16:9" />);
    expect(columnLines()).toEqual([
      '傍晚时分，他才终于找到了镇上的客栈，要了一间上房。',
      '',
      '那天夜里风很大，村子里头所有的狗都在狂吠，叫个不停。',
    ]);
  });
});
