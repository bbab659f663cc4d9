import { useState } from 'react';
import { Alert, App, Button, Drawer, Flex, Input, Spin, Typography } from 'antd';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { getWorkInfo, updateText, type WorkDetail, errorMessage } from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { workKey } from '../../../lib/query-keys';

const MAX_TITLE_LENGTH = 100;

interface WorkEditorProps {
  /** The work to edit; null keeps the drawer closed. */
  workId: number | null;
  onClose: () => void;
  /** After a save: the list shows the new title and excerpt. */
  onSaved: () => void;
  /** 用于视频 with the text and title as they stand in the editor (saved or not). */
  onUseInVideo: (text: string, title: string) => void;
}

/** A work's record, read when the drawer opens on it. */
const readWork = (workId: number, signal?: AbortSignal) => getWorkInfo({ workId }, { signal });

/** Which version of which work the form shows. */
const versionOf = (work: WorkDetail) => `${work.workId}@${work.revision}`;

/** Opens one saved text (`work_info`) to edit its title and text, saved with `update_text`. */
export function WorkEditor({ workId, onClose, onSaved, onUseInVideo }: WorkEditorProps) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: workKey(workId),
    queryFn: workId === null ? skipToken : ({ signal }) => readWork(workId, signal),
    // Each opening reads the newest record: not kept once the drawer closes, and a copy another
    // page left in the cache is read again.
    gcTime: 0,
    staleTime: 0,
  });
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  /** The version the form was filled from: a newer one fills it again. */
  const [shown, setShown] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const revisionedSave = useRevisionedSave();

  const show = (detail: WorkDetail) => {
    setShown(versionOf(detail));
    setTitle(detail.title);
    setText(detail.text);
  };
  const work = query.data?.workId === workId ? query.data : undefined;
  // The form follows the record it edits (a work opened, or read again): set while rendering,
  // so the first render of a work already shows its text.
  if (work && shown !== versionOf(work)) show(work);

  const close = () => {
    setShown(null);
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
        show(
          await client.fetchQuery({
            queryKey: workKey(work.workId),
            queryFn: ({ signal }) => readWork(work.workId, signal),
            staleTime: 0,
          }),
        );
        return;
      }
      // The form keeps what was typed; the record is now the saved one (its revision).
      setShown(versionOf(saved));
      client.setQueryData(workKey(work.workId), saved);
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
          <Button
            onClick={() => onUseInVideo(text, title)}
            disabled={!work}
            data-testid="editor-use"
          >
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
      {query.error ? (
        <Alert type="error" showIcon title={errorMessage(query.error)} />
      ) : work ? (
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
