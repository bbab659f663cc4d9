import { Button, Empty, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';

interface RolesEmptyProps {
  /** A filter or a search is on: nothing matched, rather than nothing made yet. */
  filtered: boolean;
  onCreate: () => void;
  onClearFilters: () => void;
}

/** No role to show: what the library is for and how to start it, or a way out of the filter. */
export function RolesEmpty({ filtered, onCreate, onClearFilters }: RolesEmptyProps) {
  if (filtered) {
    return (
      <Empty description="没有符合条件的角色" data-testid="role-empty">
        <Button onClick={onClearFilters}>清除筛选</Button>
      </Empty>
    );
  }
  return (
    <Empty
      data-testid="role-empty"
      description={
        <Typography.Paragraph type="secondary" style={{ maxWidth: 460, margin: '0 auto' }}>
          角色库用来保存常用的人物：写好外貌描述、定下参考图后，可以在不同的视频里反复使用，
          同一个角色在每个分镜里都长得一样。
        </Typography.Paragraph>
      }
    >
      <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={onCreate}>
        新建角色
      </Button>
    </Empty>
  );
}
