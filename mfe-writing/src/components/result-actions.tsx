import { useState } from 'react';
import { App, Button, Flex, Input, Modal } from 'antd';
import { CopyOutlined, SaveOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { Link, useNavigate } from '@kol/shared-sdk/router';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import { ProjectType, saveText, sessionStore, updateText, errorMessage } from '@kol/shared-sdk';
import { copyText } from '../lib/clipboard';

const MAX_TITLE_LENGTH = 100;

interface ResultActionsProps {
  text: string;
  /** The title the save dialog proposes. */
  defaultTitle: string;
  /** Off while a generation runs: the text is not final yet. */
  disabled?: boolean;
}

/**
 * 复制, 保存到我的文案 (save_text, then update_text for the same text again) and 发送到视频
 * (the text becomes the video flow's `KOL_VIDEO_CONTENT`, then `/video/config`).
 */
export function ResultActions({ text, defaultTitle, disabled = false }: ResultActionsProps) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [title, setTitle] = useState('');
  const [savedWorkId, setSavedWorkId] = useState<number | null>(null);
  const empty = text.trim() === '';

  const copy = async () => {
    if (await copyText(text)) void message.success('已复制到剪贴板');
    else void message.error('复制失败，请手动选择文本复制');
  };

  const openSave = () => {
    setTitle((savedWorkId === null ? defaultTitle : title) || defaultTitle);
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
      if (savedWorkId === null) {
        const { workId } = await saveText({ title: cleanTitle, text, type: ProjectType.comics });
        setSavedWorkId(workId);
      } else {
        await updateText({ workId: savedWorkId, title: cleanTitle, text });
      }
      setDialogOpen(false);
      void message.success('已保存到我的文案');
    } catch (error) {
      void message.error(errorMessage(error));
    }
  });

  const sendToVideo = () => {
    sessionStore.set('videoContent', text);
    navigate('/video/config');
  };

  return (
    <Flex gap={8} wrap align="center">
      <Button
        icon={<CopyOutlined />}
        onClick={() => void copy()}
        disabled={disabled || empty}
        data-testid="copy"
      >
        复制
      </Button>
      <Button
        icon={<SaveOutlined />}
        onClick={openSave}
        disabled={disabled || empty}
        loading={saving}
        data-testid="save"
      >
        保存到我的文案
      </Button>
      <Button
        type="primary"
        icon={<VideoCameraOutlined />}
        onClick={sendToVideo}
        disabled={disabled || empty}
        data-testid="send-to-video"
      >
        发送到视频
      </Button>
      {savedWorkId !== null && (
        <Link to="/work" data-testid="saved-link">
          已保存，去我的文案查看
        </Link>
      )}
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
