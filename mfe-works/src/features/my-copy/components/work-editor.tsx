import { useEffect, useState } from 'react';
import { Alert, App, Button, Drawer, Flex, Input, Spin, Typography } from 'antd';
import { getWorkInfo, updateText, type WorkDetail, errorMessage } from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';

const MAX_TITLE_LENGTH = 100;

interface WorkEditorProps {
  /** The work to edit; null keeps the drawer closed. */
  workId: number | null;
  onClose: () => void;
  /** After a save: the list shows the new title and excerpt. */
  onSaved: () => void;
  onUseInVideo: (text: string) => void;
}

/** Opens one saved text (`work_info`) to edit its title and text, saved with `update_text`. */
export function WorkEditor({ workId, onClose, onSaved, onUseInVideo }: WorkEditorProps) {
  const { message } = App.useApp();
  const [work, setWork] = useState<WorkDetail | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const revisionedSave = useRevisionedSave();

  useEffect(() => {
    if (workId === null) return undefined;
    let live = true;
    getWorkInfo({ workId })
      .then((detail) => {
        if (!live) return;
        setWork(detail);
        setTitle(detail.title);
        setText(detail.text);
        setLoadError(null);
      })
      .catch((error: unknown) => {
        if (live) setLoadError(errorMessage(error));
      });
    return () => {
      live = false;
    };
  }, [workId]);

  const close = () => {
    setWork(null);
    setLoadError(null);
    onClose();
  };

  const save = async () => {
    if (!work) return;
    if (!title.trim()) {
      void message.warning('请输入标题');
      return;
    }
    setSaving(true);
    try {
      const saved = await revisionedSave({
        base: { title: work.title, text: work.text },
        edited: { title: title.trim(), text },
        revision: work.revision,
        save: (value, revision) => updateText({ workId: work.workId, revision, ...value }),
        load: async () => {
          const newest = await getWorkInfo({ workId: work.workId });
          return { value: { title: newest.title, text: newest.text }, revision: newest.revision };
        },
      });
      if (!saved) {
        // The person chose the newest version: show it.
        const newest = await getWorkInfo({ workId: work.workId });
        setWork(newest);
        setTitle(newest.title);
        setText(newest.text);
        return;
      }
      setWork(saved);
      void message.success('文案已保存');
      onSaved();
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      title="编辑文案"
      open={workId !== null}
      onClose={close}
      size="large"
      destroyOnHidden
      data-testid="work-editor"
      extra={
        <Flex gap={8}>
          <Button onClick={() => onUseInVideo(text)} disabled={!work} data-testid="editor-use">
            用于视频
          </Button>
          <Button
            type="primary"
            onClick={() => void save()}
            loading={saving}
            disabled={!work}
            data-testid="editor-save"
          >
            保存
          </Button>
        </Flex>
      }
    >
      {loadError ? (
        <Alert type="error" showIcon title={loadError} />
      ) : work?.workId === workId && work ? (
        <Flex vertical gap={12}>
          <Flex vertical gap={4}>
            <Typography.Text>标题</Typography.Text>
            <Input
              aria-label="标题"
              data-testid="editor-title"
              value={title}
              maxLength={MAX_TITLE_LENGTH}
              onChange={(event) => setTitle(event.target.value)}
            />
          </Flex>
          <Flex vertical gap={4}>
            <Typography.Text>正文</Typography.Text>
            <Input.TextArea
              aria-label="正文"
              data-testid="editor-text"
              value={text}
              autoSize={{ minRows: 14, maxRows: 40 }}
              showCount
              maxLength={100_000}
              onChange={(event) => setText(event.target.value)}
            />
          </Flex>
        </Flex>
      ) : (
        <Spin />
      )}
    </Drawer>
  );
}
