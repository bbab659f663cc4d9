import { describe, expect, it } from '@jest/globals';
import { formatTime } from '../format';

describe('formatTime', () => {
  it('shows a date and minutes in local time, and leaves text that is no date alone', () => {
    const local = new Date(2026, 10, 21, 8, 5, 9);
    expect(formatTime(local.toISOString())).toBe('2026-11-21 08:05');
    expect(formatTime('昨天')).toBe('昨天');
  });
});
