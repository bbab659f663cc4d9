import { useRef } from 'react';
import {
  Alert,
  AutoComplete,
  Button,
  Card,
  Col,
  Flex,
  Image,
  Input,
  Row,
  Select,
  Spin,
  Tag,
  Typography,
} from 'antd';
import { ANIME_CAMERAS, ANIME_NARRATOR, mediaUrl } from '@kol/shared-sdk';
import { RegenerateClips } from '../../../components/regenerate-clips';
import type { PictureState } from '../../../hooks/use-image-tasks';
import type { BoardField, BoardShot } from '../board';

interface StoryboardShotCardProps {
  shot: BoardShot;
  index: number;
  count: number;
  speakers: readonly string[];
  /** False while the storyboard task still draws: the shot is shown, not edited. */
  editable: boolean;
  drawing: PictureState | undefined;
  onEdit: (field: BoardField, value: string) => void;
  onRedraw: () => void;
  onMergeWithNext: () => void;
  onSplit: (at: number) => void;
  /** The work of the board (null before it is known): a failed clip is made again in it. */
  workId: number | null;
  /** A clip made again ended: the board reads the work again. */
  onClipEnded: () => void;
}

/** One storyboard shot: camera, scene, speaker, line, picture prompt and picture. */
export function StoryboardShotCard({
  shot,
  index,
  count,
  speakers,
  editable,
  drawing,
  onEdit,
  onRedraw,
  onMergeWithNext,
  onSplit,
  workId,
  onClipEnded,
}: StoryboardShotCardProps) {
  const n = index + 1;
  const cursor = useRef<number>(shot.line.length);
  const busy = drawing?.busy ?? false;
  const failed =
    drawing?.error ??
    (drawing?.result?.state === 'failed' ? (drawing.result.error ?? '绘制失败') : null);
  const options = [ANIME_NARRATOR, ...speakers.filter((name) => name !== ANIME_NARRATOR)].map(
    (name) => ({ value: name }),
  );
  return (
    <Card size="small" role="group" aria-label={`镜头 ${n}`}>
      <Row gutter={[12, 12]}>
        <Col xs={24} sm={8} md={6}>
          <Flex vertical gap={8} align="center">
            <Spin spinning={busy} tip="绘制中">
              {shot.imageUrl ? (
                <Image
                  src={mediaUrl(shot.imageUrl)}
                  alt={`第 ${n} 个镜头的画面`}
                  width="100%"
                  style={{ maxHeight: 240, objectFit: 'contain', borderRadius: 6 }}
                />
              ) : (
                <Flex
                  align="center"
                  justify="center"
                  style={{ width: 135, height: 240, border: '1px dashed #555', borderRadius: 6 }}
                >
                  <Typography.Text type="secondary">还没有画面</Typography.Text>
                </Flex>
              )}
            </Spin>
            {shot.needsRegeneration && <Tag color="warning">本地替代画面，建议重画</Tag>}
            {shot.clipUrl && !shot.clipError && <Tag color="blue">动态镜头</Tag>}
            {shot.clipError && !shot.clipUrl && workId !== null && (
              <Flex vertical gap={4} align="center">
                <Tag color="warning" title={shot.clipError}>
                  动态镜头失败，成片用静态画面
                </Tag>
                {editable && (
                  <RegenerateClips workId={workId} pending={[index]} onEnded={onClipEnded} />
                )}
              </Flex>
            )}
            <Button
              size="small"
              loading={busy}
              disabled={!editable}
              // antd spaces two CJK characters apart (「重 画」), and the name must hold the text
              // shown (the accessibility audit's label-content-name-mismatch).
              autoInsertSpace={false}
              aria-label={`重画第 ${n} 个镜头`}
              onClick={onRedraw}
            >
              重画
            </Button>
          </Flex>
        </Col>
        <Col xs={24} sm={16} md={18}>
          <Flex vertical gap={8}>
            <Flex gap={8} wrap align="center">
              <Typography.Text strong>镜头 {n}</Typography.Text>
              <Select
                aria-label={`第 ${n} 个镜头的景别`}
                style={{ width: 96 }}
                disabled={!editable}
                value={shot.camera}
                onChange={(value: string) => onEdit('camera', value)}
                options={ANIME_CAMERAS.map((camera) => ({ value: camera, label: camera }))}
              />
              <Input
                aria-label={`第 ${n} 个镜头的场景`}
                style={{ width: 180 }}
                disabled={!editable}
                placeholder="场景"
                value={shot.scene}
                status={shot.scene.trim() ? undefined : 'error'}
                onChange={(event) => onEdit('scene', event.target.value)}
              />
              <AutoComplete
                aria-label={`第 ${n} 个镜头的角色`}
                style={{ width: 128 }}
                disabled={!editable}
                options={options}
                value={shot.speaker}
                status={shot.speaker.trim() ? undefined : 'error'}
                onChange={(value: string) => onEdit('speaker', value)}
              />
            </Flex>
            <Input.TextArea
              aria-label={`第 ${n} 个镜头的台词`}
              autoSize={{ minRows: 1, maxRows: 4 }}
              disabled={!editable}
              value={shot.line}
              status={shot.line.trim() ? undefined : 'error'}
              onChange={(event) => onEdit('line', event.target.value)}
              onSelect={(event) => {
                cursor.current = event.currentTarget.selectionStart;
              }}
            />
            <Input.TextArea
              aria-label={`第 ${n} 个镜头的画面描述`}
              autoSize={{ minRows: 1, maxRows: 4 }}
              disabled={!editable}
              value={shot.imagePrompt}
              status={shot.imagePrompt.trim() ? undefined : 'error'}
              onChange={(event) => onEdit('imagePrompt', event.target.value)}
            />
            {failed && <Alert type="error" showIcon title={`画面绘制失败：${failed}`} />}
            {drawing?.result?.error && drawing.result.state === 'succeeded' && (
              <Alert
                type="warning"
                showIcon
                title={`图像服务未成功，已用本地画面：${drawing.result.error}`}
              />
            )}
            <Flex gap={8} wrap>
              <Button
                size="small"
                disabled={!editable}
                aria-label={`在光标处拆分第 ${n} 个镜头`}
                onClick={() => onSplit(cursor.current)}
              >
                在光标处拆分
              </Button>
              <Button
                size="small"
                disabled={!editable || index === count - 1}
                aria-label={`第 ${n} 个镜头与下一个镜头合并`}
                onClick={onMergeWithNext}
              >
                与下一个镜头合并
              </Button>
            </Flex>
          </Flex>
        </Col>
      </Row>
    </Card>
  );
}
