import { errorMessage } from '@kol/shared-sdk';
import { useState } from 'react';
import { Alert, Form, Input, Modal, Radio } from 'antd';
import type { Role } from '@kol/shared-sdk';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import type { RoleFields } from '../api/use-role-actions';
import { ROLE_TYPES, asRoleType, type RoleType } from '../role-types';

const MAX_NAME_LENGTH = 32;
const MAX_DESCRIPTION_LENGTH = 1000;

interface RoleFormModalProps {
  /** The role to edit; null creates one. */
  role: Role | null;
  /** The kind a new role starts with (the list's filter, so it shows up there). */
  defaultType: RoleType;
  onSave: (fields: RoleFields) => Promise<unknown>;
  onClose: () => void;
}

/**
 * 新建角色 / 编辑角色: name, kind and look. Mounted while open, so each opening starts from the
 * role; a refused save keeps the dialog and what was typed, with the server's reason.
 */
export function RoleFormModal({ role, defaultType, onSave, onClose }: RoleFormModalProps) {
  const [form] = Form.useForm<RoleFields>();
  const [failure, setFailure] = useState<string | null>(null);

  // Once at a time, from the first click on (the check of the fields takes a moment): a double
  // click, or Enter and a click, create one role.
  const { run: submit, busy: saving } = useSingleFlight(async () => {
    let fields: RoleFields;
    try {
      fields = await form.validateFields();
    } catch {
      // The fields show what is wrong.
      return;
    }
    setFailure(null);
    try {
      await onSave({ ...fields, description: fields.description ?? '' });
      onClose();
    } catch (error) {
      setFailure(errorMessage(error));
    }
  });

  return (
    <Modal
      open
      title={role ? `编辑角色「${role.name}」` : '新建角色'}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      mask={{ closable: false }}
    >
      <Form<RoleFields>
        form={form}
        layout="vertical"
        name="role-form"
        initialValues={{
          name: role?.name ?? '',
          type: asRoleType(role?.type) ?? defaultType,
          description: role?.description ?? '',
        }}
        onFinish={() => void submit()}
      >
        {failure && (
          <Alert
            type="error"
            showIcon
            title={failure}
            style={{ marginBottom: 16 }}
            data-testid="role-form-error"
          />
        )}
        <Form.Item
          name="name"
          label="角色名"
          rules={[
            { required: true, whitespace: true, message: '请输入角色名' },
            { max: MAX_NAME_LENGTH, message: `角色名不能超过 ${MAX_NAME_LENGTH} 个字` },
          ]}
        >
          <Input placeholder="如：林动" count={{ show: true, max: MAX_NAME_LENGTH }} />
        </Form.Item>
        <Form.Item
          name="type"
          label="角色类型"
          rules={[{ required: true, message: '请选择角色类型' }]}
          extra="决定「用于视频」时可以选择哪些作品"
        >
          <Radio.Group
            optionType="button"
            options={ROLE_TYPES.map((option) => ({ value: option.type, label: option.label }))}
          />
        </Form.Item>
        <Form.Item
          name="description"
          label="外貌描述"
          rules={[
            {
              max: MAX_DESCRIPTION_LENGTH,
              message: `外貌描述不能超过 ${MAX_DESCRIPTION_LENGTH} 个字`,
            },
          ]}
          extra="年龄、发型、服饰、标志性特征……形象和每个分镜都按这段描述绘制"
        >
          <Input.TextArea rows={5} count={{ show: true, max: MAX_DESCRIPTION_LENGTH }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
