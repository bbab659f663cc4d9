import { ProjectType, TemplateId } from '@kol/shared-sdk';

/** One works list of the menu: the types it shows, the template it needs, where a work starts. */
export interface WorkList {
  path: string;
  title: string;
  /** The project types listed (a domestic type and its overseas twin share a list). */
  types: readonly ProjectType[];
  templateId: TemplateId;
  /** Where the first work of the list is made (the first type's flow). */
  flowPath: string;
}

/** The works lists of spec section 2, with the template ids of the work menu (spec section 6). */
export const WORK_LISTS: readonly WorkList[] = [
  {
    path: '/work/comics',
    title: '漫剪视频',
    types: [ProjectType.comics, ProjectType.comicsOverseas],
    templateId: TemplateId.comics,
    flowPath: '/video/config?videoType=0',
  },
  {
    path: '/work/anime',
    title: 'AI漫剧',
    types: [ProjectType.animeShorts],
    templateId: TemplateId.anime,
    flowPath: '/video/animeInspiration',
  },
  {
    path: '/work/decompression',
    title: '解压视频',
    types: [ProjectType.decompression, ProjectType.decompressionOverseas],
    templateId: TemplateId.decompression,
    flowPath: '/video/decompression',
  },
  {
    path: '/work/scroll',
    title: '滚屏视频',
    types: [ProjectType.scroll],
    templateId: TemplateId.scroll,
    flowPath: '/video/scroll',
  },
  {
    path: '/work/convert',
    title: '反推视频',
    types: [ProjectType.convert],
    templateId: TemplateId.convert,
    flowPath: '/convertConfig',
  },
  {
    path: '/work/market',
    title: '营销视频',
    types: [ProjectType.market],
    templateId: TemplateId.market,
    flowPath: '/video/market',
  },
];
