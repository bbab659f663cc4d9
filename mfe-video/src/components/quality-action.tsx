import { Button, Tag, Tooltip } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import { QUALITY_ACTION_HINTS, QUALITY_ACTION_LABELS, type QualityAction } from '@kol/shared-sdk';

/**
 * What fixes a quality problem, beside it: a picture is redrawn on the page of its shots
 * (`redraw`, a link; nothing when the work has no such page), a service is configured by the
 * installation's administrator (its name, and who sets it up on hover).
 */
export function QualityActionButton({
  action,
  redraw,
}: {
  action: QualityAction;
  redraw: string | null;
}) {
  if (action === 'regeneratePictures') {
    return redraw ? (
      <Link to={redraw}>
        <Button size="small">{QUALITY_ACTION_LABELS.regeneratePictures}</Button>
      </Link>
    ) : null;
  }
  return (
    <Tooltip title={QUALITY_ACTION_HINTS[action]}>
      <Tag color="orange" style={{ margin: 0 }}>
        {QUALITY_ACTION_LABELS[action]}
      </Tag>
    </Tooltip>
  );
}
