import { useState } from 'react';
import { Form, Input, Modal } from 'antd';
import type { WorkSummary } from '@kol/shared-sdk';

/** The server's limit on a work's title (`save_video_info`). */
export const TITLE_MAX_LENGTH = 100;

interface RenameModalProps {
  work: WorkSummary | null;
  /** Saves the new title; a rejection (already told to the user) keeps the dialog and the input. */
  onSave: (work: WorkSummary, title: string) => Promise<void>;
  onClose: () => void;
}

/** Renames a work: 1 to 100 characters, checked before anything is sent. */
export function RenameModal({ work, onSave, onClose }: RenameModalProps) {
  const [form] = Form.useForm<{ title: string }>();
  const [saving, setSaving] = useState(false);

  const save = async () => {
    if (!work) return;
    let title: string;
    try {
      title = (await form.validateFields()).title.trim();
    } catch {
      return; // The form shows what is wrong.
    }
    if (title === work.title) {
      onClose();
      return;
    }
    setSaving(true);
    try {
      await onSave(work, title);
      onClose();
    } catch {
      // Told by onSave; what was typed stays for another try.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="重命名"
      open={work !== null}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={onClose}
      destroyOnHidden
    >
      {work && (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ title: work.title }}
          // Closing unmounts the form: nothing typed for one work shows up when renaming the next.
          preserve={false}
          onFinish={() => void save()}
        >
          <Form.Item
            name="title"
            label="作品标题"
            rules={[
              { required: true, whitespace: true, message: '请输入作品标题' },
              { max: TITLE_MAX_LENGTH, message: `标题不能超过 ${TITLE_MAX_LENGTH} 个字` },
            ]}
          >
            <Input maxLength={TITLE_MAX_LENGTH} showCount autoFocus />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
