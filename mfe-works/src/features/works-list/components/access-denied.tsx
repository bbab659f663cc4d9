import { Result } from 'antd';
import { RouteButton } from './route-button';

/** The user's template ids do not include this list's (spec sections 4 and 5). */
export function NoTemplatePermission({ title }: { title: string }) {
  return (
    <Result
      // antd's 403 and 404 pictures are drawn in its default blue, off the theme's palette.
      status="warning"
      title="没有权限"
      subTitle={`你没有查看「${title}」的权限，如需开通请联系我们。`}
      extra={<HomeButton />}
    />
  );
}

/** Functional level 0 blocks the reverse-video works (spec section 6). */
export function NeedsFunctionalLevel({ title }: { title: string }) {
  return (
    <Result
      // antd's 403 and 404 pictures are drawn in its default blue, off the theme's palette.
      status="warning"
      title="功能等级不足"
      subTitle={`「${title}」需要功能等级 1 及以上，你的账号还未开通，如需开通请联系我们。`}
      extra={<HomeButton />}
    />
  );
}

function HomeButton() {
  return (
    <RouteButton type="primary" to="/">
      返回首页
    </RouteButton>
  );
}
