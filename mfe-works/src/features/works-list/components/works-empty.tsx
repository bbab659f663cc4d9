import { Button, Empty } from 'antd';
import { CreationFlag } from '@kol/shared-sdk';
import type { WorkList } from '../../../lib/work-lists';
import { RouteButton } from './route-button';

interface WorksEmptyProps {
  list: WorkList;
  flag: CreationFlag;
  keyword: string;
  onClearSearch: () => void;
}

/**
 * Nothing to list: after a search, say so and offer to clear it; otherwise say how the first work
 * gets here (a made video lands in 草稿; 移到作品 puts it in 作品) and lead to the type's flow.
 */
export function WorksEmpty({ list, flag, keyword, onClearSearch }: WorksEmptyProps) {
  if (keyword) {
    return (
      <Empty description={`没有找到标题包含“${keyword}”的${list.title}`} data-testid="works-empty">
        <Button onClick={onClearSearch}>清除搜索</Button>
      </Empty>
    );
  }
  const description =
    flag === CreationFlag.creation
      ? `还没有${list.title}作品：在草稿里把做好的视频「移到作品」后，它会出现在这里`
      : `还没有${list.title}草稿：在视频合成里开始制作第一个视频后，它会出现在这里`;
  return (
    <Empty description={description} data-testid="works-empty">
      <RouteButton type="primary" to={list.flowPath} data-testid="works-empty-make">
        去制作
      </RouteButton>
    </Empty>
  );
}
