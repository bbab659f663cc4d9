import { useRef } from 'react';
import {
  Alert,
  Button,
  Card,
  Flex,
  Image,
  Select,
  Spin,
  Tag,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import {
  DeleteOutlined,
  EditOutlined,
  PictureOutlined,
  UploadOutlined,
  UserOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import {
  GENDER_CHOICES,
  IMAGE_UPLOAD_MIME_TYPES,
  genderChoiceOf,
  genderOfChoice,
  mediaUrl,
  type GenderChoice,
  type Role,
} from '@kol/shared-sdk';
import type { RedrawState } from '../api/use-role-redraw';
import { roleTypeLabel } from '../role-types';

const COVER_HEIGHT = 220;

interface RoleCardProps {
  role: Role;
  redraw: RedrawState | undefined;
  uploading: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onRedraw: () => void;
  onUpload: (file: File) => void;
  onUseInVideo: () => void;
  /** Saves another gender (null: 未知); the roles are read again after. */
  onGenderChange: (gender: Role['gender']) => void;
  savingGender: boolean;
}

/** What the last 重绘形象 came to: drawing, who drew it, or why it failed. */
function RedrawStatus({ state }: { state: RedrawState | undefined }) {
  if (!state) return null;
  if (state.busy) {
    return (
      <Flex gap={8} align="center">
        <Spin size="small" />
        <Typography.Text type="secondary">
          {state.result?.state === 'running' ? '正在绘制形象…' : '形象排队中…'}
        </Typography.Text>
      </Flex>
    );
  }
  const failure =
    state.error ??
    (state.result && state.result.state !== 'succeeded'
      ? (state.result.error ?? (state.result.state === 'cancelled' ? '已取消' : '绘制失败'))
      : null);
  if (failure) return <Alert type="error" showIcon title={`形象绘制失败：${failure}`} />;
  if (!state.result) return null;
  return (
    <Flex vertical gap={4}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        新形象由「{state.result.engine}」绘制
      </Typography.Text>
      {/* The image service failed and the local renderer stood in: say why, it can be redrawn. */}
      {state.result.error && (
        <Alert
          type="warning"
          showIcon
          title={`图像服务出错，已用本地画面代替：${state.result.error}`}
        />
      )}
    </Flex>
  );
}

/**
 * One library role: its reference picture (the one every shot of the role is drawn after), name,
 * kind, look, its other portraits, and what can be done with it.
 */
export function RoleCard({
  role,
  redraw,
  uploading,
  onEdit,
  onDelete,
  onRedraw,
  onUpload,
  onUseInVideo,
  onGenderChange,
  savingGender,
}: RoleCardProps) {
  const { token } = theme.useToken();
  const fileInput = useRef<HTMLInputElement>(null);
  const typeLabel = roleTypeLabel(role.type);
  const portraits = [...new Set(role.imageUrls.filter(Boolean))];

  return (
    <Card
      role="group"
      aria-label={`角色 ${role.name}`}
      data-testid={`role-card-${role.roleId}`}
      size="small"
      style={{ height: '100%' }}
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 8, flex: 1 } }}
      cover={
        role.referenceImageUrl ? (
          <Image
            src={mediaUrl(role.referenceImageUrl)}
            alt={`${role.name} 参考图`}
            height={COVER_HEIGHT}
            width="100%"
            style={{ objectFit: 'cover' }}
          />
        ) : (
          <Flex
            vertical
            align="center"
            justify="center"
            gap={4}
            data-testid={`role-cover-empty-${role.roleId}`}
            // The theme's fill, as the works' 暂无封面: a white block was a hole in the dark page.
            style={{
              height: COVER_HEIGHT,
              background: token.colorFillTertiary,
              color: token.colorTextQuaternary,
            }}
          >
            <UserOutlined aria-hidden style={{ fontSize: 40 }} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              暂无参考图：重绘形象或上传一张
            </Typography.Text>
          </Flex>
        )
      }
    >
      <Flex align="center" gap={8} wrap>
        <Typography.Text strong ellipsis style={{ maxWidth: '70%' }}>
          {role.name}
        </Typography.Text>
        {typeLabel && <Tag color="magenta">{typeLabel}</Tag>}
        <Tooltip title="默认配音按性别选择">
          <Select
            size="small"
            aria-label={`性别 ${role.name}`}
            style={{ width: 72, marginLeft: 'auto' }}
            loading={savingGender}
            disabled={savingGender}
            value={genderChoiceOf(role.gender)}
            options={[...GENDER_CHOICES]}
            onChange={(choice: GenderChoice) => onGenderChange(genderOfChoice(choice))}
          />
        </Tooltip>
      </Flex>
      <Typography.Paragraph
        type="secondary"
        ellipsis={{ rows: 3, tooltip: role.description || undefined }}
        style={{ margin: 0, minHeight: 66 }}
      >
        {role.description || '还没有外貌描述'}
      </Typography.Paragraph>
      {portraits.length > 0 && (
        <Flex gap={6} wrap>
          <Image.PreviewGroup>
            {portraits.map((url, index) => (
              <Image
                key={url}
                src={mediaUrl(url)}
                alt={`${role.name} 形象 ${index + 1}`}
                width={44}
                height={58}
                style={{
                  objectFit: 'cover',
                  borderRadius: 4,
                  // The one every shot of the role is drawn after.
                  outline: url === role.referenceImageUrl ? '2px solid #eb2f96' : undefined,
                }}
              />
            ))}
          </Image.PreviewGroup>
        </Flex>
      )}
      <RedrawStatus state={redraw} />
      <Flex gap={4} wrap style={{ marginTop: 'auto' }}>
        <Tooltip title="编辑">
          <Button
            size="small"
            icon={<EditOutlined aria-hidden />}
            aria-label={`编辑角色 ${role.name}`}
            onClick={onEdit}
          />
        </Tooltip>
        <Tooltip title="重绘形象：按外貌描述画一张新形象">
          <Button
            size="small"
            icon={<PictureOutlined aria-hidden />}
            loading={redraw?.busy}
            aria-label={`重绘形象 ${role.name}`}
            onClick={onRedraw}
          />
        </Tooltip>
        <Tooltip title="上传参考图（JPEG、PNG、WebP，不超过 5 MB）">
          <Button
            size="small"
            icon={<UploadOutlined aria-hidden />}
            loading={uploading}
            aria-label={`上传参考图 ${role.name}`}
            onClick={() => fileInput.current?.click()}
          />
        </Tooltip>
        <input
          ref={fileInput}
          type="file"
          hidden
          accept={IMAGE_UPLOAD_MIME_TYPES.join(',')}
          data-testid={`role-upload-input-${role.roleId}`}
          onChange={(event) => {
            const file = event.target.files?.[0];
            // Cleared, so choosing the same file again still reports a change.
            event.target.value = '';
            if (file) onUpload(file);
          }}
        />
        <Tooltip title="删除">
          <Button
            size="small"
            danger
            icon={<DeleteOutlined aria-hidden />}
            aria-label={`删除角色 ${role.name}`}
            onClick={onDelete}
          />
        </Tooltip>
        <Button
          size="small"
          type="primary"
          ghost
          icon={<VideoCameraOutlined aria-hidden />}
          aria-label={`用于视频 ${role.name}`}
          onClick={onUseInVideo}
          style={{ marginLeft: 'auto' }}
        >
          用于视频
        </Button>
      </Flex>
    </Card>
  );
}
