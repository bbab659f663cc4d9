import {
  DEFAULT_DRAFT_FOLDERS,
  draftFolderProblem,
  errorMessage,
  updateUserDraft,
  type UserInfo,
} from '@kol/shared-sdk';
import { Button, Form, Input, Typography, message, type FormRule } from 'antd';
import { useSaveUserInfo } from '../../../hooks/use-save-user-info';

interface DraftFolderValues {
  draftPath: string;
}

const saveDraftFolder = (body: { draftPath: string }) => updateUserDraft(body);

// The SDK's words, which the 剪映 export's dialog says too; empty is allowed here (it clears).
const draftFolderRules: FormRule[] = [
  {
    validator: async (_rule, value: string | undefined) => {
      const problem = draftFolderProblem((value ?? '').trim());
      if (problem) throw new Error(problem);
    },
  },
];

/**
 * Where the creator's 剪映 keeps its drafts (`draftPath`, saved with `update_user_draft`). A
 * draft exported for 剪映 names its media by their place in this folder, so it is asked once and
 * remembered here; empty means not set.
 */
export function DraftFolderForm({ user }: { user: UserInfo }) {
  const [form] = Form.useForm<DraftFolderValues>();
  const [messageApi, messageHolder] = message.useMessage();
  const { save, saving } = useSaveUserInfo(saveDraftFolder);

  const onFinish = async (values: DraftFolderValues) => {
    const draftPath = values.draftPath.trim();
    try {
      await save({ draftPath });
      form.setFieldValue('draftPath', draftPath);
      void messageApi.success(draftPath === '' ? '已清除剪映草稿文件夹' : '剪映草稿文件夹已保存');
    } catch (error) {
      void messageApi.error(errorMessage(error));
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={{ draftPath: user.draftPath }}
      onFinish={onFinish}
      name="draft-folder"
    >
      {messageHolder}
      <Typography.Paragraph type="secondary">
        剪映把草稿保存在你电脑上的一个文件夹里。填写后，为剪映导出的草稿会按这个文件夹写入素材的位置，解压到这里即可在剪映或
        CapCut 中打开编辑。留空表示未设置。
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        默认位置：Windows{' '}
        <Typography.Text code copyable>
          {DEFAULT_DRAFT_FOLDERS.windows}
        </Typography.Text>
        ；macOS{' '}
        <Typography.Text code copyable>
          {DEFAULT_DRAFT_FOLDERS.macos}
        </Typography.Text>
      </Typography.Paragraph>
      <Form.Item label="剪映草稿文件夹" name="draftPath" rules={draftFolderRules}>
        <Input placeholder="例如 D:\剪映草稿" autoComplete="off" spellCheck={false} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} autoInsertSpace={false}>
        保存草稿文件夹
      </Button>
    </Form>
  );
}
