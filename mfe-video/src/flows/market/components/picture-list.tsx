import { useRef } from 'react';
import { Button, Flex, Progress, Typography } from 'antd';
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { MAX_IMAGE_UPLOAD_BYTES, mediaUrl } from '@kol/shared-sdk';
import { ConfirmButton } from '../../../components/confirm-button';
import type { PictureUpload } from '../api/use-market-video';
import { MAX_MARKET_PICTURES } from '../market-flow';
import { PICTURE_ACCEPT } from '../picture-file';

interface PictureListProps {
  pictures: string[];
  uploads: PictureUpload[];
  onAdd: (files: File[]) => void;
  onMove: (index: number, by: -1 | 1) => void;
  onRemove: (index: number) => void;
}

/** The pictures in the order the video shows them: add (several at once), move, remove. */
export function PictureList({ pictures, uploads, onAdd, onMove, onRemove }: PictureListProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <Flex vertical gap={12}>
      <Typography.Text type="secondary">
        JPEG、PNG、WebP，每张不超过 {MAX_IMAGE_UPLOAD_BYTES / 1024 / 1024} MB，最多{' '}
        {MAX_MARKET_PICTURES} 张；按顺序逐句展示，没有图片时由服务器绘制画面。
      </Typography.Text>
      <div>
        <input
          ref={input}
          type="file"
          multiple
          accept={PICTURE_ACCEPT}
          aria-label="选择图片"
          style={{ display: 'none' }}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            onAdd(files);
          }}
        />
        <Button icon={<UploadOutlined aria-hidden />} onClick={() => input.current?.click()}>
          添加图片
        </Button>
      </div>
      {uploads.map((u) => (
        <Progress
          key={u.name}
          percent={u.percent}
          size="small"
          aria-label={`「${u.name}」的上传进度`}
        />
      ))}
      <Flex wrap gap={12}>
        {pictures.map((url, i) => (
          <Flex
            key={`${url}-${i}`}
            vertical
            gap={4}
            align="center"
            role="group"
            aria-label={`图片 ${i + 1}`}
          >
            <img
              src={mediaUrl(url)}
              alt={`第 ${i + 1} 张图片`}
              style={{ width: 90, height: 120, objectFit: 'cover', borderRadius: 4 }}
            />
            <Flex gap={4}>
              <Button
                size="small"
                icon={<ArrowUpOutlined aria-hidden />}
                aria-label={`上移第 ${i + 1} 张图片`}
                disabled={i === 0}
                onClick={() => onMove(i, -1)}
              />
              <Button
                size="small"
                icon={<ArrowDownOutlined aria-hidden />}
                aria-label={`下移第 ${i + 1} 张图片`}
                disabled={i === pictures.length - 1}
                onClick={() => onMove(i, 1)}
              />
              <ConfirmButton
                size="small"
                danger
                icon={<DeleteOutlined aria-hidden />}
                aria-label={`删除第 ${i + 1} 张图片`}
                confirmTitle="删除图片"
                confirmContent={`从视频中去掉第 ${i + 1} 张图片？`}
                okText="删除图片"
                okDanger
                onConfirm={async () => onRemove(i)}
              />
            </Flex>
          </Flex>
        ))}
      </Flex>
    </Flex>
  );
}
