import { useState, type ReactNode } from 'react';
import { App, Button, Flex, Form, Input, Modal, Tooltip, Typography, type ButtonProps } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
// The main and state entries by their package names: shared singletons, as in the rest of ui.
import {
  DEFAULT_DRAFT_FOLDERS,
  draftFolderProblem,
  errorMessage,
  exportProjectUrl,
  updateUserDraft,
} from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { useSingleFlight } from './single-flight';

/**
 * What 导出工程 makes, for its tooltip and wherever a page names it in words of its own (the
 * works cards' menu): the name alone does not say which editors open it.
 */
export const MLT_EXPORT_HINT =
  'MLT 工程：解压后用 Shotcut 或 Kdenlive 打开其中的 .mlt 文件，素材都在压缩包里';

/**
 * Starts a download as a click on a plain link would: the browser streams the ZIP to disk, the
 * page never holds it. Used once the drafts folder is saved, when the person's own click went to
 * 保存并下载 rather than to the link.
 */
function followDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

interface DraftFolderValues {
  draftPath: string;
}

/** Where the unpacked draft goes and what opens it, said wherever the draft is offered. */
function UnzipSteps() {
  return (
    <Flex vertical gap={2} data-testid="jianying-unzip-steps">
      <Typography.Text type="secondary">
        下载后，把 ZIP 解压到这个剪映草稿文件夹里（Windows 和 macOS 都一样）。
      </Typography.Text>
      <Typography.Text type="secondary">
        然后打开剪映或 CapCut，草稿列表里就有这个视频，可以直接编辑。
      </Typography.Text>
    </Flex>
  );
}

/**
 * Asks for the drafts folder (empty, or 修改), checks it as the server will, saves it with
 * `update_user_draft` into the user's info (so every later export and the user centre have it)
 * and then starts the download.
 */
function DraftFolderAsk({
  current,
  url,
  onSaved,
  onCancel,
}: {
  current: string;
  url: string;
  onSaved: () => void;
  onCancel: (() => void) | null;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<DraftFolderValues>();
  const setCurrentUser = useSetAtom(currentUserAtom);
  const { mutateAsync: saveFolder } = useMutation({
    mutationFn: (draftPath: string) => updateUserDraft({ draftPath }),
    // The answer is the whole user: the host's atom holds it, so the next export (on any page of
    // any remote) and the user centre's form read the saved folder.
    onSuccess: (user) => setCurrentUser(user),
  });
  const submit = useSingleFlight(async ({ draftPath }: DraftFolderValues) => {
    const folder = draftPath.trim();
    if (folder !== current) {
      try {
        await saveFolder(folder);
      } catch (error) {
        form.setFields([{ name: 'draftPath', errors: [errorMessage(error)] }]);
        return;
      }
      void message.success('剪映草稿文件夹已保存，开始下载');
    }
    onSaved();
    followDownload(url);
  });

  return (
    <Form
      form={form}
      layout="vertical"
      name="jianying-draft-folder"
      initialValues={{ draftPath: current }}
      onFinish={(values) => void submit.run(values)}
    >
      <Typography.Paragraph type="secondary">
        剪映草稿里的素材位置按你电脑上的剪映草稿文件夹写入，请填写一次，之后会记住（也可在个人中心修改）。
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
      <Form.Item
        label="剪映草稿文件夹"
        name="draftPath"
        rules={[
          {
            validator: async (_rule, value: string | undefined) => {
              const folder = (value ?? '').trim();
              // Empty clears the folder in the user centre; here it is what is missing.
              if (folder === '') throw new Error('请填写剪映草稿文件夹');
              const problem = draftFolderProblem(folder);
              if (problem) throw new Error(problem);
            },
          },
        ]}
      >
        <Input placeholder="例如 D:\剪映草稿" autoComplete="off" spellCheck={false} />
      </Form.Item>
      <Flex gap={8} justify="end">
        {onCancel && (
          <Button onClick={onCancel} autoInsertSpace={false}>
            取消
          </Button>
        )}
        <Button type="primary" htmlType="submit" loading={submit.busy}>
          保存并下载
        </Button>
      </Flex>
    </Form>
  );
}

/** The dialog's body: made anew each time it opens (the dialog destroys it when hidden). */
function JianyingDraftContent({ url }: { url: string }) {
  const folder = useAtomValue(currentUserAtom)?.draftPath ?? '';
  const [editing, setEditing] = useState(false);

  let body: ReactNode;
  if (folder === '' || editing) {
    body = (
      <DraftFolderAsk
        current={folder}
        url={url}
        onSaved={() => setEditing(false)}
        onCancel={folder === '' ? null : () => setEditing(false)}
      />
    );
  } else {
    body = (
      <Flex vertical gap={12} align="flex-start">
        <Flex gap={8} align="center" wrap>
          <Typography.Text>剪映草稿文件夹</Typography.Text>
          <Typography.Text code data-testid="jianying-draft-folder">
            {folder}
          </Typography.Text>
          <Button
            type="link"
            size="small"
            autoInsertSpace={false}
            aria-label="修改剪映草稿文件夹"
            onClick={() => setEditing(true)}
          >
            修改
          </Button>
        </Flex>
        <Button type="primary" href={url} download>
          下载剪映草稿（ZIP）
        </Button>
      </Flex>
    );
  }
  return (
    <Flex vertical gap={12}>
      {body}
      <UnzipSteps />
    </Flex>
  );
}

export interface JianyingDraftDialogProps {
  workId: number;
  /** One render of the work; absent: its newest finished video. */
  taskId?: string;
  open: boolean;
  onClose: () => void;
}

/**
 * 导出剪映草稿: the draft's media paths are written for the user's drafts folder (`draftPath`),
 * which the server needs (it refuses the export without one). Not set: the dialog asks for it
 * once, saves it and starts the download. Set: it shows the folder with 修改 and the download
 * link. A plain link either way: the ZIP streams from the server to the disk.
 */
export function JianyingDraftDialog({ workId, taskId, open, onClose }: JianyingDraftDialogProps) {
  return (
    <Modal title="导出剪映草稿" open={open} onCancel={onClose} footer={null} destroyOnHidden>
      <JianyingDraftContent url={exportProjectUrl(workId, 'jianying', taskId)} />
    </Modal>
  );
}

export interface ExportProjectProps {
  workId: number;
  /** One render of the work (a result page's task); absent: the work's newest finished video. */
  taskId?: string;
  /**
   * Why the video cannot be exported (`exportRefusal` of WorkResult or WorkSummary): shown in
   * place of the actions. Null or absent: the actions, and the server's answer has the last word.
   */
  exportRefusal?: string | null;
  /** The video's name, added to the actions' names where a page shows several (a series). */
  name?: string;
  size?: ButtonProps['size'];
}

/**
 * 导出剪映草稿 and 导出工程 (MLT, for Shotcut / Kdenlive) of one finished video, or the reason it
 * cannot be exported: one row of two buttons, for a result page or a card.
 */
export function ExportProject({ workId, taskId, exportRefusal, name, size }: ExportProjectProps) {
  const [drafting, setDrafting] = useState(false);
  if (typeof exportRefusal === 'string') {
    return (
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="export-refusal">
        {exportRefusal}
      </Typography.Text>
    );
  }
  const named = (action: string) => (name ? `${action} ${name}` : undefined);
  return (
    <Flex gap={8} wrap>
      <Button
        size={size}
        autoInsertSpace={false}
        aria-label={named('导出剪映草稿')}
        onClick={() => setDrafting(true)}
      >
        导出剪映草稿
      </Button>
      <Tooltip title={MLT_EXPORT_HINT}>
        <Button
          size={size}
          autoInsertSpace={false}
          href={exportProjectUrl(workId, 'mlt', taskId)}
          download
          aria-label={named('导出工程')}
        >
          导出工程
        </Button>
      </Tooltip>
      <JianyingDraftDialog
        workId={workId}
        taskId={taskId}
        open={drafting}
        onClose={() => setDrafting(false)}
      />
    </Flex>
  );
}
