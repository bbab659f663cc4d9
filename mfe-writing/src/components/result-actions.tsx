import { useState } from 'react';
import { App, Button, Flex, Input, Modal } from 'antd';
import { CopyOutlined, SaveOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { Link, useNavigate } from '@kol/shared-sdk/router';
import {
  ProjectType,
  getWorkInfo,
  handOverToVideo,
  saveText,
  updateText,
  errorMessage,
  type VideoTypeEntry,
} from '@kol/shared-sdk';
import { useRevisionedSave, useSingleFlight, VideoTypeChooser } from '@kol/shared-sdk/ui';
import { copyText } from '../lib/clipboard';

const MAX_TITLE_LENGTH = 100;

/** The copy this page saved to My copy: a save over it is based on its revision. */
interface SavedCopy {
  workId: number;
  revision: number;
  title: string;
  text: string;
}

interface ResultActionsProps {
  text: string;
  /** The title the save dialog proposes. */
  defaultTitle: string;
  /** Off while a generation runs: the text is not final yet. */
  disabled?: boolean;
}

/**
 * 复制, 保存到我的文案 (save_text, then update_text for the same text again) and 发送到视频
 * (asks which video type to make, among the types that start from a text and the user's
 * template ids allow; the text and its title become `KOL_VIDEO_HANDOVER` and that type's first
 * step opens). Saving again
 * is based on the revision the first save answered: an edit made in My copy since is merged in,
 * or the person asked when the same part was changed there too.
 */
export function ResultActions({ text, defaultTitle, disabled = false }: ResultActionsProps) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const revisionedSave = useRevisionedSave();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [title, setTitle] = useState('');
  const [saved, setSaved] = useState<SavedCopy | null>(null);
  const [choosingType, setChoosingType] = useState(false);
  const empty = text.trim() === '';

  const copy = async () => {
    if (await copyText(text)) void message.success('已复制到剪贴板');
    else void message.error('复制失败，请手动选择文本复制');
  };

  const openSave = () => {
    setTitle((saved === null ? defaultTitle : title) || defaultTitle);
    setDialogOpen(true);
  };

  // Once at a time: 保存 clicked twice, or Enter and a click, save one text.
  const { run: save, busy: saving } = useSingleFlight(async () => {
    const cleanTitle = title.trim();
    if (!cleanTitle) {
      void message.warning('请输入标题');
      return;
    }
    try {
      if (saved === null) {
        const made = await saveText({ title: cleanTitle, text, type: ProjectType.comics });
        setSaved({ workId: made.workId, revision: made.revision, title: cleanTitle, text });
      } else {
        const { workId } = saved;
        const work = await revisionedSave({
          base: { title: saved.title, text: saved.text },
          edited: { title: cleanTitle, text },
          revision: saved.revision,
          save: (value, revision) => updateText({ workId, revision, ...value }),
          load: async () => {
            const newest = await getWorkInfo({ workId });
            return {
              value: { title: newest.title, text: newest.text },
              revision: newest.revision,
            };
          },
        });
        if (!work) {
          // The person kept My copy's newest version: the next save is based on it.
          const newest = await getWorkInfo({ workId });
          setSaved({ workId, revision: newest.revision, title: newest.title, text: newest.text });
          setDialogOpen(false);
          void message.info('已保留「我的文案」中的最新内容，本页的修改没有保存');
          return;
        }
        setSaved({ workId, revision: work.revision, title: work.title, text: work.text });
      }
      setDialogOpen(false);
      void message.success('已保存到我的文案');
    } catch (error) {
      void message.error(errorMessage(error));
    }
  });

  // The title the copy was saved under, else the one the save dialog proposes (the book's).
  const sendToVideo = (entry: VideoTypeEntry) => {
    setChoosingType(false);
    navigate(handOverToVideo(entry, text, saved?.title ?? defaultTitle.trim()));
  };

  return (
    <Flex gap={8} wrap align="center">
      <Button
        icon={<CopyOutlined aria-hidden />}
        onClick={() => void copy()}
        disabled={disabled || empty}
        data-testid="copy"
      >
        复制
      </Button>
      <Button
        icon={<SaveOutlined aria-hidden />}
        onClick={openSave}
        disabled={disabled || empty}
        loading={saving}
        data-testid="save"
      >
        保存到我的文案
      </Button>
      <Button
        type="primary"
        icon={<VideoCameraOutlined aria-hidden />}
        onClick={() => setChoosingType(true)}
        disabled={disabled || empty}
        data-testid="send-to-video"
      >
        发送到视频
      </Button>
      {saved !== null && (
        <Link to="/work" data-testid="saved-link">
          已保存，去我的文案查看
        </Link>
      )}
      <VideoTypeChooser
        open={choosingType}
        onChoose={sendToVideo}
        onCancel={() => setChoosingType(false)}
      />
      <Modal
        title="保存到我的文案"
        open={dialogOpen}
        okText="保存"
        cancelText="取消"
        confirmLoading={saving}
        onOk={() => void save()}
        onCancel={() => setDialogOpen(false)}
        destroyOnHidden
      >
        <Input
          aria-label="标题"
          data-testid="save-title"
          value={title}
          maxLength={MAX_TITLE_LENGTH}
          showCount
          onChange={(event) => setTitle(event.target.value)}
          onPressEnter={() => void save()}
        />
      </Modal>
    </Flex>
  );
}
