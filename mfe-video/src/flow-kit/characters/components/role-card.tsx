import { mediaUrl } from '@kol/shared-sdk';
import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Flex,
  Image,
  Input,
  Popconfirm,
  Select,
  Spin,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { DeleteOutlined, PictureOutlined } from '@ant-design/icons';
import {
  GENDER_CHOICES,
  genderChoiceOf,
  genderOfChoice,
  type GenderChoice,
  type Role,
} from '@kol/shared-sdk';
import type { PictureState } from '../../../hooks/use-image-tasks';
import type { RoleEdit } from '../api/use-role-actions';

interface RoleCardProps {
  role: Role;
  /** Every picture of the role, the reference first. */
  pictures: string[];
  drawing: PictureState | undefined;
  /** Saves the edit; answers the role as it now is (saved, or the newest), or null on failure. */
  onSave: (edit: RoleEdit) => Promise<Role | null>;
  onDraw: (prompt: string) => void;
  onDelete: () => Promise<void>;
}

/**
 * One role: its name and fixed look to edit, its pictures (the reference picture is used for
 * every shot that names the role), and a button that draws another portrait.
 */
export function RoleCard({ role, pictures, drawing, onSave, onDraw, onDelete }: RoleCardProps) {
  // The role the person's edit started from: its save is based on that one's revision.
  const [base, setBase] = useState(role);
  const [name, setName] = useState(role.name);
  const [description, setDescription] = useState(role.description);
  const [gender, setGender] = useState(role.gender);
  const [saving, setSaving] = useState(false);
  const dirty = name !== base.name || description !== base.description || gender !== base.gender;
  const drawLabel = pictures.length > 0 ? '再画一张' : '生成形象';
  const take = (next: Role) => {
    setBase(next);
    setName(next.name);
    setDescription(next.description);
    setGender(next.gender);
  };
  // The role read again (a portrait drawn moves its revision on): the next edit starts from it,
  // unless one is under way, which stays based on its own start and is merged when saved.
  const [seen, setSeen] = useState(role);
  if (role !== seen) {
    setSeen(role);
    if (!dirty) take(role);
  }
  const problem = !name.trim()
    ? '角色名不能为空'
    : name.length > 32
      ? '角色名不能超过 32 个字'
      : null;

  const save = async () => {
    if (problem) return;
    setSaving(true);
    try {
      const now = await onSave({
        base: { name: base.name, description: base.description, gender: base.gender },
        edited: { name: name.trim(), description, gender },
        revision: base.revision,
      });
      if (now) take(now);
    } finally {
      setSaving(false);
    }
  };

  const providerNote =
    drawing?.result?.state === 'succeeded' && drawing.result.error
      ? `图像服务出错，已用本地画面代替：${drawing.result.error}`
      : null;
  const failed =
    drawing?.error ??
    (drawing?.result?.state === 'failed' ? (drawing.result.error ?? '绘制失败') : null);

  return (
    <Card size="small" role="group" aria-label={`角色 ${role.name}`}>
      <Flex vertical gap={8}>
        <Flex gap={8} align="center">
          <Input
            aria-label={`角色名 ${role.name}`}
            value={name}
            maxLength={32}
            status={problem ? 'error' : undefined}
            onChange={(event) => setName(event.target.value)}
          />
          <Tooltip title="从原文推断，可修改；默认配音按性别选择">
            <Select
              aria-label={`性别 ${role.name}`}
              style={{ width: 84, flex: 'none' }}
              value={genderChoiceOf(gender)}
              options={[...GENDER_CHOICES]}
              onChange={(choice: GenderChoice) => setGender(genderOfChoice(choice))}
            />
          </Tooltip>
          <Tooltip title="同一角色在所有分镜中使用固定的外貌设定与参考图，长相保持一致">
            <Tag>形象固定</Tag>
          </Tooltip>
        </Flex>
        {problem && <Typography.Text type="danger">{problem}</Typography.Text>}
        <Input.TextArea
          aria-label={`外貌设定 ${role.name}`}
          placeholder="年龄、发型、服饰、标志性特征……每个分镜都按这段设定绘制"
          rows={3}
          maxLength={1000}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <Flex gap={8} wrap>
          {pictures.length === 0 && !drawing?.busy && (
            <Typography.Text type="secondary">还没有形象图</Typography.Text>
          )}
          <Image.PreviewGroup>
            {pictures.map((url) => (
              <Image
                key={url}
                src={mediaUrl(url)}
                alt={url === role.referenceImageUrl ? `${role.name} 参考图` : `${role.name} 形象`}
                width={72}
                height={96}
                style={{
                  objectFit: 'cover',
                  borderRadius: 6,
                  outline: url === role.referenceImageUrl ? '2px solid #eb2f96' : undefined,
                }}
              />
            ))}
          </Image.PreviewGroup>
          {drawing?.busy && (
            <Flex vertical align="center" justify="center" style={{ width: 72, height: 96 }}>
              <Spin size="small" />
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                绘制中
              </Typography.Text>
            </Flex>
          )}
        </Flex>
        {providerNote && <Alert type="warning" showIcon title={providerNote} />}
        {failed && <Alert type="error" showIcon title={`形象绘制失败：${failed}`} />}
        <Flex gap={8} wrap justify="flex-end">
          <Button
            icon={<PictureOutlined aria-hidden />}
            loading={drawing?.busy}
            // The name begins with the text shown (the accessibility audit refuses a name that
            // leaves out what is written), then says whose.
            aria-label={`${drawLabel} ${role.name}`}
            onClick={() => onDraw(description)}
          >
            {drawLabel}
          </Button>
          <Button
            type="primary"
            disabled={!dirty || !!problem}
            loading={saving}
            onClick={() => void save()}
          >
            保存修改
          </Button>
          <Popconfirm
            title={`删除角色「${role.name}」？`}
            description="删除后这个角色不会再出现在画面里。"
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={onDelete}
          >
            <Button
              danger
              icon={<DeleteOutlined aria-hidden />}
              aria-label={`删除角色 ${role.name}`}
            />
          </Popconfirm>
        </Flex>
      </Flex>
    </Card>
  );
}
