import { Typography } from 'antd';
import { useImageEngines } from '../api/use-image-engines';

/**
 * 生成模型, beside the picture style: which engine draws the pictures (`version_list`, the first)
 * and which stands in when it fails. Shown, not offered: the server has no setting to choose
 * one, it draws with them in this order.
 */
export function ImageEngineNote() {
  const { engines, loading, error, reload } = useImageEngines();
  if (loading) return null;
  if (error) {
    return (
      <Typography.Text type="secondary" data-testid="image-engines">
        生成模型加载失败：{error} <Typography.Link onClick={reload}>重新加载</Typography.Link>
      </Typography.Text>
    );
  }
  const [first, ...standIns] = engines;
  if (!first) return null;
  return (
    <Typography.Text type="secondary" data-testid="image-engines">
      生成模型：{first.name}（{first.description}）
      {standIns.length > 0 && `；出错时由${standIns.map((engine) => engine.name).join('、')}代替`}
    </Typography.Text>
  );
}
