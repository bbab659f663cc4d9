import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen } from '@testing-library/react';
import App from '../../app';
import { renderWithHost } from '../../testing/render';

describe('pages of later issues', () => {
  it.each([
    ['/video/scroll', '滚屏视频'],
    ['/video/scroll', '滚屏视频'],
    ['/video/market/:segment?/:id?', '营销视频'],
  ])('%s says the %s pages are coming and leads back to /video', (path, name) => {
    renderWithHost(<App routePath={path} />, { route: '/x' });
    expect(screen.getByRole('heading', { name })).toBeInTheDocument();
    expect(screen.getByText(`「${name}」的页面即将上线`)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '返回视频合成' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/video$/);
  });

  it('lays the page out for a phone under /m', () => {
    const { container } = renderWithHost(<App routePath="/video/scroll" />, {
      route: '/m/video/scroll',
    });
    expect(container.querySelector('[data-layout="phone"]')).toBeInTheDocument();
  });
});
