import { useState } from 'react';
import { Alert, App, Button, Card, Empty, Flex, Modal, Result, Spin, Typography } from 'antd';
import { Link, useNavigate } from '@kol/shared-sdk/router';
import {
  formatTime,
  videoTypeLabel,
  type Role,
  type WorkSummary,
  errorMessage,
} from '@kol/shared-sdk';
import { addRoleToWork, useRoleVideos } from '../api/use-role-videos';
import { newVideoFor, rolesPageOf } from '../role-types';

interface UseInVideoModalProps {
  role: Role;
  onClose: () => void;
}

/**
 * 用于视频: the user's works that can take this role; choosing one copies the role into that
 * work's roles, where it is drawn with the same look, reference picture and seed.
 */
export function UseInVideoModal({ role, onClose }: UseInVideoModalProps) {
  return (
    <Modal
      open
      title={`把「${role.name}」用于视频`}
      footer={null}
      onCancel={onClose}
      width={600}
      data-testid="role-use-dialog"
    >
      <WorkChooser role={role} onClose={onClose} />
    </Modal>
  );
}

function WorkChooser({ role, onClose }: UseInVideoModalProps) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const videos = useRoleVideos(role.type);
  const [addingId, setAddingId] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [added, setAdded] = useState<WorkSummary | null>(null);

  const choose = async (work: WorkSummary) => {
    setAddingId(work.workId);
    setFailure(null);
    try {
      await addRoleToWork(role, work);
      setAdded(work);
      void message.success(`已加入《${work.title}》的角色`);
    } catch (error) {
      // E.g. the work already has a role of this name (409): the user may pick another work.
      setFailure(errorMessage(error));
    } finally {
      setAddingId(null);
    }
  };

  if (added) {
    return (
      <Result
        status="success"
        title={`已加入《${added.title}》的角色`}
        subTitle="那里的是一份副本：在视频里修改它，不会改动我的角色里的原角色。"
        extra={
          <Button
            type="primary"
            data-testid="role-use-go"
            onClick={() => {
              onClose();
              navigate(rolesPageOf(added));
            }}
          >
            去角色页
          </Button>
        }
      />
    );
  }

  if (videos.error) {
    return (
      <Alert
        type="error"
        showIcon
        title={`作品加载失败：${videos.error}`}
        action={
          <Button size="small" onClick={videos.reload}>
            重试
          </Button>
        }
      />
    );
  }

  if (videos.loading || !videos.works) return <Spin description="正在读取作品" />;

  if (videos.works.length === 0) {
    const start = newVideoFor(role.type);
    return (
      <Empty
        description={`还没有可以加入角色的${start.label}作品，先新建一个吧`}
        data-testid="role-use-empty"
      >
        <Link to={start.path} data-testid="role-use-new-video">
          新建{start.label}
        </Link>
      </Empty>
    );
  }

  return (
    <Flex vertical gap={12}>
      <Typography.Text type="secondary">
        选择一个作品，角色会复制到该作品的角色里，之后的分镜都按它的外貌和参考图绘制。
      </Typography.Text>
      {failure && <Alert type="error" showIcon title={failure} data-testid="role-use-error" />}
      <Flex vertical gap={8} style={{ maxHeight: 420, overflowY: 'auto' }}>
        {videos.works.map((work) => (
          <Card key={work.workId} size="small" data-testid={`role-use-work-${work.workId}`}>
            <Flex justify="space-between" align="center" gap={12}>
              <Flex vertical style={{ minWidth: 0 }}>
                <Typography.Text strong ellipsis>
                  {work.title}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {videoTypeLabel(work.type)} · 更新于 {formatTime(work.updateTime)}
                </Typography.Text>
              </Flex>
              <Button
                autoInsertSpace={false}
                size="small"
                type="primary"
                loading={addingId === work.workId}
                disabled={addingId !== null && addingId !== work.workId}
                aria-label={`加入《${work.title}》`}
                onClick={() => void choose(work)}
              >
                加入
              </Button>
            </Flex>
          </Card>
        ))}
      </Flex>
    </Flex>
  );
}
