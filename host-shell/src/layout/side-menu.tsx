import {
  EditOutlined,
  FolderOutlined,
  HomeOutlined,
  SafetyCertificateOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { visibleWorkMenuItems } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { Menu, type MenuProps } from 'antd';
import { useAtomValue } from 'jotai';
import { Suspense, useEffect, useState } from 'react';
import { useLocation, useNavigate } from '@kol/shared-sdk/router';
import { claimedRoutesAtom } from '../federation/remote-state';
import { scheduleIdlePreload } from '../federation/idle-preload';
import { preloadRemoteApp } from '../federation/remote-registry';
import { desktopPathOf } from '../session/route-rules';
import { lazyPart, useOpenedOnce } from '../components/lazy-part';

// Opened on a click: its text stays out of the first load.
const ConventionModal = lazyPart(async () => (await import('./convention-modal')).ConventionModal);

const CONVENTION_KEY = 'convention';

/** The menu's selected key: `?type=composite|tools` preselects the video items (spec section 2). */
export function selectedMenuKey(pathname: string, search: string): string {
  const type = new URLSearchParams(search).get('type');
  if (type === 'composite') return '/video';
  if (type === 'tools') return '/video/tool';
  return desktopPathOf(pathname);
}

/** The paths the menu leads to, in its order (groups and the convention item lead nowhere). */
function menuPaths(items: MenuProps['items']): string[] {
  return (items ?? []).flatMap((item) => {
    if (!item) return [];
    const own = typeof item.key === 'string' && item.key.startsWith('/') ? [item.key] : [];
    const children = 'children' in item ? menuPaths(item.children) : [];
    return [...own, ...children];
  });
}

export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const user = useAtomValue(currentUserAtom);
  const claims = useAtomValue(claimedRoutesAtom);
  const location = useLocation();
  const navigate = useNavigate();
  const [conventionOpen, setConventionOpen] = useState(false);
  const conventionMounted = useOpenedOnce(conventionOpen);

  // Hovering an item fetches the remote that serves it, so the click shows the page sooner.
  const label = (text: string, path: string) => (
    <span
      onMouseEnter={() => {
        const claim = claims.find((c) => c.path === path);
        if (claim) void preloadRemoteApp(claim.remote);
      }}
    >
      {text}
    </span>
  );

  const workItems = visibleWorkMenuItems(user);
  const items: MenuProps['items'] = [
    { key: '/', icon: <HomeOutlined aria-hidden />, label: label('首页', '/') },
    {
      key: 'text',
      icon: <EditOutlined aria-hidden />,
      label: '文本创作',
      children: [
        { key: '/generate', label: label('一键成文', '/generate') },
        { key: '/create', label: label('创意写作', '/create') },
      ],
    },
    {
      key: 'video',
      icon: <VideoCameraOutlined aria-hidden />,
      label: '视频创作',
      children: [
        { key: '/video', label: label('视频合成', '/video') },
        { key: '/video/tool', label: label('视频工具', '/video/tool') },
      ],
    },
    {
      key: 'works',
      icon: <FolderOutlined aria-hidden />,
      label: '我的作品',
      children: workItems.map((item) => ({
        key: item.path,
        label: label(item.label, item.path),
      })),
    },
    { key: CONVENTION_KEY, icon: <SafetyCertificateOutlined aria-hidden />, label: '社区公约' },
  ];

  // The remotes behind the menu, in its order, fetched once the first page has settled.
  const menuRemotes = [
    ...new Set(
      menuPaths(items).flatMap((path) => claims.find((c) => c.path === path)?.remote ?? []),
    ),
  ].join(',');
  useEffect(
    () => scheduleIdlePreload(menuRemotes ? menuRemotes.split(',') : [], preloadRemoteApp),
    [menuRemotes],
  );

  return (
    <>
      <Menu
        mode="inline"
        selectedKeys={[selectedMenuKey(location.pathname, location.search)]}
        defaultOpenKeys={['text', 'video', 'works']}
        items={items}
        onClick={({ key }) => {
          if (key === CONVENTION_KEY) {
            setConventionOpen(true);
            return;
          }
          navigate(key);
          onNavigate?.();
        }}
        data-testid="side-menu"
      />
      {conventionMounted && (
        <Suspense fallback={null}>
          <ConventionModal open={conventionOpen} onClose={() => setConventionOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
