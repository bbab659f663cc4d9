import { Button, Empty, Flex, Modal, Typography } from 'antd';
import { useAtomValue } from 'jotai';
// The main and state entries by their package names: shared singletons, as in the rest of ui.
import { VIDEO_TYPES, canUseProjectType, type VideoTypeEntry } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';

/**
 * 发送到视频 / 用于视频: the video types a written text can start (those whose first step takes a
 * text) that the account may use, each with what it makes; choosing one is the caller's (hand
 * the text over with `handOverToVideo` and go to the path it answers). Shared by the writing
 * and works remotes, which never import each other.
 */
export function VideoTypeChooser({
  open,
  title = '发送到视频：选择视频类型',
  onChoose,
  onCancel,
}: {
  open: boolean;
  title?: string;
  onChoose: (entry: VideoTypeEntry) => void;
  onCancel: () => void;
}) {
  const user = useAtomValue(currentUserAtom);
  const types = VIDEO_TYPES.filter(
    (entry) => entry.takesText && canUseProjectType(user, entry.type),
  );
  return (
    <Modal title={title} open={open} footer={null} onCancel={onCancel} destroyOnHidden>
      {types.length === 0 ? (
        <Empty description="你的账号还没有开通可以用文案制作的视频类型，请联系我们开通" />
      ) : (
        <Flex vertical gap={8} data-testid="video-types">
          {types.map((entry) => (
            <Button
              key={entry.type}
              block
              style={{ height: 'auto', padding: '8px 12px', textAlign: 'left' }}
              data-testid={`video-type-${entry.type}`}
              onClick={() => onChoose(entry)}
            >
              <Flex vertical align="flex-start" style={{ whiteSpace: 'normal' }}>
                <Typography.Text strong>{entry.label}</Typography.Text>
                <Typography.Text type="secondary">{entry.description}</Typography.Text>
              </Flex>
            </Button>
          ))}
        </Flex>
      )}
    </Modal>
  );
}
