import { theme, type ThemeConfig } from 'antd';

/** Dark theme, pink primary (spec section 1); remotes inherit it through the shared antd. */
export const KOL_THEME: ThemeConfig = {
  algorithm: theme.darkAlgorithm,
  token: { colorPrimary: '#eb2f96', borderRadius: 8 },
};
