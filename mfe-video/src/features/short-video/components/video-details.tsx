import { useState } from 'react';
import { App, Button, Flex, Input, Segmented, Typography } from 'antd';
import { DownloadOutlined, EditOutlined } from '@ant-design/icons';
import { Link } from '@kol/shared-sdk/router';
import {
  CreationFlag,
  ProjectType,
  formatDurationMs,
  mediaUrl,
  getWorkInfo,
  regenerateVideo,
  saveVideoInfo,
  updateVideoStatus,
  videoTypeLabel,
  type WorkDetail,
  errorMessage,
} from '@kol/shared-sdk';
import { useRevisionedSave } from '@kol/shared-sdk/ui';
import { ConfirmButton } from '../../../components/confirm-button';
import { loadWork } from '../../../flow-kit/work-edits';

interface VideoDetailsProps {
  work: WorkDetail;
  videoUrl: string;
  srtUrl: string;
  durationMs: number | null;
  onChanged: (work: WorkDetail) => void;
  onRegenerated: () => void;
}

/** Name, length, downloads, draft or creation, and what to do next with a finished video. */
export function VideoDetails({
  work,
  videoUrl,
  srtUrl,
  durationMs,
  onChanged,
  onRegenerated,
}: VideoDetailsProps) {
  const { message } = App.useApp();
  const revisionedSave = useRevisionedSave();
  const [title, setTitle] = useState(work.title);
  const [renaming, setRenaming] = useState(false);
  const [flagging, setFlagging] = useState(false);
  const name = title.trim();
  const problem = !name ? '请填写视频标题' : name.length > 100 ? '标题不能超过 100 个字' : null;

  const rename = async () => {
    if (problem) {
      void message.error(problem);
      return;
    }
    setRenaming(true);
    try {
      // Based on the work as the page read it: a rename elsewhere since is not overwritten
      // unasked (a flag moved meanwhile is merged in).
      const saved = await revisionedSave({
        base: { title: work.title },
        edited: { title: name },
        revision: work.revision,
        save: async (value, revision) => ({
          value,
          ...(await saveVideoInfo({ workId: work.workId, revision, ...value })),
        }),
        load: loadWork(work.workId, (newest) => ({ title: newest.title })),
      });
      if (!saved) {
        // The person chose the title as saved elsewhere.
        const newest = await getWorkInfo({ workId: work.workId });
        setTitle(newest.title);
        onChanged(newest);
        return;
      }
      onChanged({ ...work, title: saved.value.title, revision: saved.revision });
      void message.success('标题已保存');
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setRenaming(false);
    }
  };

  const setFlag = async (flag: number) => {
    setFlagging(true);
    try {
      await updateVideoStatus({ workId: work.workId, flag: flag as CreationFlag });
      onChanged({ ...work, flag });
      void message.success(flag === CreationFlag.creation ? '已移到作品' : '已移到草稿');
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setFlagging(false);
    }
  };

  const regenerate = async () => {
    try {
      await regenerateVideo({ workId: work.workId });
      onRegenerated();
    } catch (error) {
      void message.error(errorMessage(error));
      throw error;
    }
  };

  const file = name || work.title;
  return (
    <Flex vertical gap={12}>
      <Flex gap={8}>
        <Input
          aria-label="视频标题"
          value={title}
          maxLength={100}
          status={problem ? 'error' : undefined}
          onChange={(event) => setTitle(event.target.value)}
        />
        <Button loading={renaming} disabled={name === work.title} onClick={() => void rename()}>
          保存标题
        </Button>
      </Flex>
      <Typography.Text type="secondary">
        {videoTypeLabel(work.type)} · 时长{' '}
        {durationMs === null ? '读取中' : formatDurationMs(durationMs)}
      </Typography.Text>
      <Flex gap={8} align="center" wrap>
        <Typography.Text>状态</Typography.Text>
        <Segmented
          aria-label="作品状态"
          disabled={flagging}
          value={work.flag}
          onChange={(value) => void setFlag(Number(value))}
          options={[
            { value: CreationFlag.draft, label: '草稿' },
            { value: CreationFlag.creation, label: '作品' },
          ]}
        />
      </Flex>
      <Flex gap={8} wrap>
        <Button
          icon={<DownloadOutlined aria-hidden />}
          href={mediaUrl(videoUrl)}
          download={`${file}.mp4`}
        >
          下载 MP4
        </Button>
        <Button
          icon={<DownloadOutlined aria-hidden />}
          href={mediaUrl(srtUrl)}
          download={`${file}.srt`}
          disabled={!srtUrl}
        >
          下载 SRT 字幕
        </Button>
        {/* A scrolling video has no editor or merge (spec): the server refuses both. A
            decompression video is edited segment by segment on the spec's /video/cut, which the
            one editor serves outside the layout; every other type in that editor at /work/cut. */}
        {work.type === ProjectType.scroll ? (
          <Typography.Text type="secondary">滚屏视频不能在编辑器中修改</Typography.Text>
        ) : work.type === ProjectType.decompression ||
          work.type === ProjectType.decompressionOverseas ? (
          <Link to={`/video/cut?workId=${work.workId}`}>
            <Button icon={<EditOutlined aria-hidden />}>片段编辑</Button>
          </Link>
        ) : (
          <Link to={`/work/cut/${work.workId}`}>
            <Button icon={<EditOutlined aria-hidden />}>在编辑器中修改</Button>
          </Link>
        )}
        <ConfirmButton
          confirmTitle="重新生成"
          confirmContent={`将消耗 1 次「${videoTypeLabel(work.type)}」生成次数，用当前的文案、分镜和设置重新生成。生成失败会自动退回次数。`}
          okText="确认重新生成"
          onConfirm={regenerate}
        >
          重新生成
        </ConfirmButton>
      </Flex>
    </Flex>
  );
}
