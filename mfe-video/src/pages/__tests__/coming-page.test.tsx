import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen } from '@testing-library/react';
import App from '../../app';
import { COMING } from '../index';
import { renderWithHost } from '../../testing/render';

describe('pages of later issues', () => {
  // Derived from the list, so a flow that gets its pages leaves this test by leaving the list.
  const coming = COMING.map(([path, name]) => [path, name] as const);
  // Once every flow has its pages the table is empty, and jest refuses an empty table.
  (coming.length > 0 ? it.each(coming) : it.skip.each([['', '']]))(
    '%s says the %s pages are coming and leads back to /video',
    (path, name) => {
      renderWithHost(<App routePath={path} />, { route: '/x' });
      expect(screen.getByRole('heading', { name })).toBeInTheDocument();
      expect(screen.getByText(`「${name}」的页面即将上线`)).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: '返回视频合成' }));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/video$/);
    },
  );

  it('lays the page out for a phone under /m', () => {
    const { container } = renderWithHost(<App routePath="/video/decompression" />, {
      route: '/m/video/decompression',
    });
    expect(container.querySelector('[data-layout="phone"]')).toBeInTheDocument();
  });
});
