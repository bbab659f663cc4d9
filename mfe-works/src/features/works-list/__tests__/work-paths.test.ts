import { describe, expect, it } from '@jest/globals';
import { makePathOf } from '../work-paths';

describe('makePathOf', () => {
  it('takes a saved work on at its own pages when its type reads a work back', () => {
    expect(makePathOf({ workId: 1, type: 0 })).toBe('/video/caption?workId=1&videoType=0');
    expect(makePathOf({ workId: 2, type: 5 })).toBe('/video/caption?workId=2&videoType=5');
    expect(makePathOf({ workId: 6, type: 2 })).toBe('/video/scroll?workId=6');
    expect(makePathOf({ workId: 7, type: 3 })).toBe('/convertConfig?step=script&workId=7');
    expect(makePathOf({ workId: 8, type: 4 })).toBe('/video/market/content/8');
  });

  it('starts the flow again for the other types, and the hub for an unknown one', () => {
    expect(makePathOf({ workId: 9, type: 1 })).toBe('/video/decompression');
    expect(makePathOf({ workId: 10, type: 6 })).toBe('/video/decompression?videoType=6');
    expect(makePathOf({ workId: 11, type: 99 })).toBe('/video');
  });
});
