import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Col, Empty, Flex, Row, Skeleton, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { Link } from '@kol/shared-sdk/router';
import { canUseProjectType } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { PageFrame } from '../../../components/page-frame';
import { useRoleActions } from '../../../flow-kit/characters/api/use-role-actions';
import { useRoleTask } from '../../../flow-kit/characters/api/use-role-task';
import { AddRoleForm } from '../../../flow-kit/characters/components/add-role-form';
import { RoleCard } from '../../../flow-kit/characters/components/role-card';
import { RoleLibraryModal } from '../../../flow-kit/characters/components/role-library-modal';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { NoPermission } from '../../../flow-kit/no-permission';
import { pagePath, usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { COMIC_STEPS, flowQuery } from '../comic-flow';
import { useComicFlow } from '../use-comic-flow';

/**
 * `/video/character` 角色: the roles of the text, each with a fixed look and portrait, so the same
 * role looks the same in every shot. Roles are extracted once on arrival when the work has none.
 */
export function CharacterStep() {
  const user = useAtomValue(currentUserAtom);
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const { type, workId, store, overseas } = useComicFlow();
  const task = useRoleTask(type, workId, store);
  const actions = useRoleActions({ ...task, store });
  const [libraryOpen, setLibraryOpen] = useState(false);
  const extractedOnArrival = useRef(false);
  const query = flowQuery(type, workId);

  // A work's first visit: its roles come from its text without a click.
  const { loading, error, taskId, roles } = task;
  const { extract } = actions;
  useEffect(() => {
    if (loading || error || !taskId || roles.length > 0 || extractedOnArrival.current) return;
    extractedOnArrival.current = true;
    void extract(store.text());
  }, [loading, error, taskId, roles.length, extract, store]);

  if (!canUseProjectType(user, type)) return <NoPermission type={type} />;

  return (
    <PageFrame
      title={overseas ? '海外漫剪视频 · 角色' : '漫剪视频 · 角色'}
      steps={<FlowSteps steps={COMIC_STEPS} current={2} />}
      extra={
        <Flex gap={8} wrap>
          <Button
            loading={actions.extracting}
            disabled={!task.taskId}
            onClick={() => void actions.extract(store.text())}
          >
            从文案提取角色
          </Button>
          <Button disabled={!task.taskId} onClick={() => setLibraryOpen(true)}>
            从角色库添加
          </Button>
        </Flex>
      }
      actions={
        <>
          <Button onClick={() => navigate(`/video/caption${query}`)}>上一步</Button>
          <Button
            type="primary"
            size={phone ? 'large' : 'middle'}
            disabled={workId === null || task.loading}
            onClick={() => navigate(`/video/promptWord/${workId ?? ''}${query}`)}
          >
            下一步：分镜画面
          </Button>
        </>
      }
    >
      {workId === null && (
        <Alert
          type="warning"
          showIcon
          title="还没有保存视频配置"
          description={<Link to={pagePath(`/video/config${query}`, phone)}>先去完成视频配置</Link>}
        />
      )}
      {task.error && (
        <Alert
          type="error"
          showIcon
          title={`角色加载失败：${task.error}`}
          action={
            <Button size="small" onClick={task.reload}>
              重新加载
            </Button>
          }
        />
      )}
      {actions.engine && <Alert type="info" showIcon title={`角色提取方式：${actions.engine}`} />}
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        角色名须与文案中的称呼一致：每个分镜会画出字幕里提到的角色，并使用该角色固定的外貌设定与参考图，保证同一角色在所有分镜里长得一样。
      </Typography.Paragraph>
      {task.loading ? (
        <Skeleton active />
      ) : (
        <Row gutter={[12, 12]}>
          {task.roles.length === 0 && (
            <Col xs={24}>
              <Empty description="还没有角色：可以从文案提取、从角色库添加，或手动添加" />
            </Col>
          )}
          {task.roles.map((role) => (
            <Col key={role.roleId} xs={24} md={phone ? 24 : 12} xl={phone ? 24 : 8}>
              <RoleCard
                role={role}
                pictures={actions.picturesOf(role)}
                drawing={actions.drawing[String(role.roleId)]}
                onSave={(edit) => actions.save(role.roleId, edit)}
                onDraw={(prompt) => void actions.draw(role.roleId, prompt)}
                onDelete={() => actions.remove(role.roleId)}
              />
            </Col>
          ))}
          {task.taskId && (
            <Col xs={24} md={phone ? 24 : 12} xl={phone ? 24 : 8}>
              <AddRoleForm onAdd={actions.add} />
            </Col>
          )}
        </Row>
      )}
      <RoleLibraryModal
        open={libraryOpen}
        onClose={() => setLibraryOpen(false)}
        currentWorkId={workId}
        taken={task.roles.map((role) => role.name)}
        onUse={actions.copyFromLibrary}
      />
    </PageFrame>
  );
}
