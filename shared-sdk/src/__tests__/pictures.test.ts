import { describe, expect, it } from '@jest/globals';
import { LOCAL_FALLBACK_LABEL, LOCAL_FRAME_LABEL, shotPicture } from '../pictures';

const shot = (imageUrl: string, imageEngine?: string, needsRegeneration = false) => ({
  imageUrl,
  needsRegeneration,
  ...(imageEngine !== undefined ? { imageEngine } : {}),
});

describe('who drew a shot’s picture', () => {
  it('reads the engine recorded with the picture, whatever is configured now', () => {
    expect(shotPicture(shot(''), true)).toBe('none');
    expect(shotPicture(shot('/media/1/a.jpg', LOCAL_FRAME_LABEL), true)).toBe('local');
    expect(shotPicture(shot('/media/1/a.jpg', LOCAL_FALLBACK_LABEL, true), true)).toBe('fallback');
    expect(shotPicture(shot('/media/1/a.jpg', undefined, true), false)).toBe('fallback');
    // Drawn by a service that is no longer configured: still the service's picture.
    expect(shotPicture(shot('/media/1/a.jpg', 'gpt-image-1（x）'), false)).toBe('service');
  });

  it('takes a picture of no recorded engine as local only when no image service is configured', () => {
    expect(shotPicture(shot('/media/1/a.jpg'), false)).toBe('local');
    expect(shotPicture(shot('/media/1/a.jpg'), true)).toBe('service');
  });
});
