import { mediaUrl } from '@kol/shared-sdk';
import { Alert, Button, Card, Col, Flex, Image, Input, Row, Spin, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import type { Role, Shot } from '@kol/shared-sdk';
import type { PictureState } from '../../../hooks/use-image-tasks';

interface ShotPictureCardProps {
  shot: Shot;
  prompt: string;
  onPromptChange: (prompt: string) => void;
  onPromptDone: () => void;
  roles: Role[];
  drawing: PictureState | undefined;
  /** The provider's message when this shot's picture fell back to the local frame. */
  note: string | undefined;
  onDraw: () => void;
  phone: boolean;
}

/** One shot: its caption, the picture prompt to edit, who is in it, and its picture. */
export function ShotPictureCard({
  shot,
  prompt,
  onPromptChange,
  onPromptDone,
  roles,
  drawing,
  note,
  onDraw,
  phone,
}: ShotPictureCardProps) {
  const n = shot.index + 1;
  const busy = drawing?.busy ?? false;
  const failed =
    drawing?.error ??
    (drawing?.result?.state === 'failed' ? (drawing.result.error ?? '绘制失败') : null);
  return (
    <Card size="small" role="group" aria-label={`分镜 ${n}`}>
      <Row gutter={[12, 8]}>
        <Col xs={24} sm={phone ? 24 : 8}>
          <div
            style={{
              width: '100%',
              aspectRatio: '9 / 16',
              maxHeight: 280,
              borderRadius: 6,
              overflow: 'hidden',
              background: 'rgba(255,255,255,0.04)',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
            }}
          >
            {busy ? (
              <Spin description="绘制中" />
            ) : shot.imageUrl ? (
              <Image
                src={mediaUrl(shot.imageUrl)}
                alt={`分镜 ${n} 的画面`}
                style={{ objectFit: 'cover' }}
                height="100%"
              />
            ) : (
              <Typography.Text type="secondary">尚未生成画面</Typography.Text>
            )}
          </div>
        </Col>
        <Col xs={24} sm={phone ? 24 : 16}>
          <Flex vertical gap={6}>
            <Flex gap={6} align="center" wrap>
              <Typography.Text strong>分镜 {n}</Typography.Text>
              {shot.needsRegeneration && !busy && <Tag color="warning">本地画面</Tag>}
              {roles.map((role) => (
                <Tag key={role.roleId} color="magenta">
                  {role.name}
                </Tag>
              ))}
            </Flex>
            <Typography.Paragraph style={{ margin: 0 }}>{shot.caption}</Typography.Paragraph>
            <Input.TextArea
              aria-label={`第 ${n} 个分镜的画面描述`}
              rows={3}
              maxLength={2000}
              value={prompt}
              status={prompt.trim() ? undefined : 'error'}
              onChange={(event) => onPromptChange(event.target.value)}
              onBlur={onPromptDone}
            />
            {shot.needsRegeneration && !busy && (
              <Alert
                type="warning"
                showIcon
                title={
                  note
                    ? `图像服务出错，已用本地画面代替：${note}`
                    : '这张是本地画面（图像服务出错或未配置），可以重新生成'
                }
              />
            )}
            {failed && <Alert type="error" showIcon title={`第 ${n} 个分镜绘制失败：${failed}`} />}
            <Button
              icon={<ReloadOutlined aria-hidden />}
              loading={busy}
              aria-label={`重新生成第 ${n} 个分镜的画面`}
              onClick={onDraw}
              style={{ alignSelf: 'flex-end' }}
            >
              {shot.imageUrl ? '重新生成' : '生成画面'}
            </Button>
          </Flex>
        </Col>
      </Row>
    </Card>
  );
}
