import { useEffect, useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Col, Empty, Flex, Row, Skeleton, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useSearchParams } from '@kol/shared-sdk/router';
import {
  canUseProjectType,
  inferGender,
  startAnimeStoryboard,
  errorMessage,
} from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import { PageFrame } from '../../../components/page-frame';
import { useRoleActions } from '../../../flow-kit/characters/api/use-role-actions';
import { useRoleTask } from '../../../flow-kit/characters/api/use-role-task';
import { AddRoleForm } from '../../../flow-kit/characters/components/add-role-form';
import { RoleCard } from '../../../flow-kit/characters/components/role-card';
import { RoleLibraryModal } from '../../../flow-kit/characters/components/role-library-modal';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { NoPermission } from '../../../flow-kit/no-permission';
import { usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { ANIME_STEPS, ANIME_TYPE, animeQuery, animeStore, workIdOf } from '../anime-flow';
import { charactersOf } from '../anime-script';
import { useAnimeWork } from '../api/use-anime-work';
import { NoAnimeWork } from '../components/no-anime-work';

function AnimeCharacters({ workId }: { workId: number }) {
  const { message } = App.useApp();
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const script = useAnimeWork(workId);
  const task = useRoleTask(ANIME_TYPE, workId, animeStore);
  const actions = useRoleActions({ ...task, store: animeStore });
  const [libraryOpen, setLibraryOpen] = useState(false);
  const addedOnArrival = useRef(false);
  const query = animeQuery(workId);

  const characters = charactersOf(script.lines);
  const missing = characters.filter(
    (character) => !task.roles.some((role) => role.name === character.name),
  );
  const spoken = new Set(characters.map((character) => character.name));

  /** A role for each character of the script that has none yet, with an empty look to fill. */
  const { mutate: addMissing, isPending: adding } = useMutation({
    mutationFn: async (names: string[]) => {
      const cast = characters.map((character) => character.name);
      // Each starts with the gender the script gives it (its voice's default follows it).
      for (const name of names) {
        const others = cast.filter((other) => other !== name);
        await actions.add(name, '', inferGender(script.work?.text ?? '', name, [], others));
      }
      await task.refresh();
    },
    onError: (reason) => void message.error(`角色加载失败：${errorMessage(reason)}`),
  });

  // Arriving: the script's characters become the work's roles without a click.
  const ready = !task.loading && !task.error && task.taskId !== null && script.work !== null;
  useEffect(() => {
    if (!ready || addedOnArrival.current) return;
    addedOnArrival.current = true;
    const names = missing.map((character) => character.name);
    if (names.length > 0) addMissing(names);
    // Once per visit, when the task and the script are both known.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready]);

  // Once at a time: a double click starts one storyboard.
  const { run: next, busy: starting } = useSingleFlight(async () => {
    try {
      const { taskId } = await startAnimeStoryboard({ workId });
      navigate(`/video/animeStoryboard/${taskId}`);
    } catch (reason) {
      void message.error(`分镜没有开始生成：${errorMessage(reason)}`);
    }
  });

  return (
    <PageFrame
      title="AI漫剧 · 角色"
      steps={<FlowSteps steps={ANIME_STEPS} current={3} />}
      extra={
        <Flex gap={8} wrap>
          <Button
            loading={adding}
            disabled={!task.taskId || missing.length === 0}
            onClick={() => addMissing(missing.map((character) => character.name))}
          >
            添加剧本中的角色{missing.length > 0 ? `（${missing.length}）` : ''}
          </Button>
          <Button disabled={!task.taskId} onClick={() => setLibraryOpen(true)}>
            从我的角色添加
          </Button>
        </Flex>
      }
      actions={
        <>
          <Button onClick={() => navigate(`/video/animeConfig${query}`)}>上一步</Button>
          <Button
            type="primary"
            size={phone ? 'large' : 'middle'}
            loading={starting}
            disabled={task.loading || adding}
            onClick={() => void next()}
          >
            下一步：生成分镜
          </Button>
        </>
      }
    >
      {(task.error ?? script.error) && (
        <Alert
          type="error"
          showIcon
          title={`角色加载失败：${task.error ?? script.error}`}
          action={
            <Button
              size="small"
              onClick={() => {
                task.reload();
                script.reload();
              }}
            >
              重新加载
            </Button>
          }
        />
      )}
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        剧本中的每个角色（旁白除外）一张卡片：填写外貌设定并生成形象。外貌设定与参考图在所有镜头里保持不变，同一角色在每个镜头中长得一样。角色名须与剧本中的称呼一致。
      </Typography.Paragraph>
      {task.loading ? (
        <Skeleton active />
      ) : (
        <Row gutter={[12, 12]}>
          {task.roles.length === 0 && !adding && (
            <Col xs={24}>
              <Empty description="还没有角色：剧本里只有旁白时可以不设角色，也可以手动添加" />
            </Col>
          )}
          {task.roles.map((role) => (
            <Col key={role.roleId} xs={24} md={phone ? 24 : 12} xl={phone ? 24 : 8}>
              <Flex vertical gap={4}>
                <RoleCard
                  role={role}
                  pictures={actions.picturesOf(role)}
                  drawing={actions.drawing[String(role.roleId)]}
                  onSave={(edit) => actions.save(role.roleId, edit)}
                  onDraw={(prompt) => void actions.draw(role.roleId, prompt)}
                  onDelete={() => actions.remove(role.roleId)}
                />
                {script.work && !spoken.has(role.name) && (
                  <Typography.Text type="warning">剧本中没有「{role.name}」的台词</Typography.Text>
                )}
              </Flex>
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

/**
 * `/video/animeCharacter` 角色: the characters who speak in the script, each a role of the work
 * with a fixed look and portraits (drawn and redrawn on request), or a role reused from My roles.
 * 下一步 starts the storyboard task (`anime_storyboard`, no count) and follows it.
 */
export function AnimeCharacterStep() {
  const user = useAtomValue(currentUserAtom);
  const [params] = useSearchParams();
  const workId = workIdOf(params);
  if (!canUseProjectType(user, ANIME_TYPE)) return <NoPermission type={ANIME_TYPE} />;
  if (workId === null) return <NoAnimeWork title="AI漫剧 · 角色" />;
  return <AnimeCharacters key={workId} workId={workId} />;
}
