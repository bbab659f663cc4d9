import { useRef, useState, type ChangeEvent } from 'react';
import { Alert, App, Button, Empty, Flex, Modal, Pagination, Spin, Typography, theme } from 'antd';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { UploadOutlined } from '@ant-design/icons';
import {
  IMAGE_UPLOAD_MIME_TYPES,
  getUploadedImages,
  imageUploadProblem,
  mediaUrl,
  uploadImage,
  errorMessage,
} from '@kol/shared-sdk';
import { UPLOADED_PAGE_SIZE } from '../constants';

/** The query key of a page of the user's uploaded pictures (all pages: `['uploaded-images']`). */
export const uploadedImagesKey = (pageIndex: number) =>
  ['uploaded-images', { pageIndex, pageSize: UPLOADED_PAGE_SIZE }] as const;

interface PictureChooserProps {
  open: boolean;
  onClose: () => void;
  onChoose: (url: string) => void;
}

/** 选择已上传图片: the user's uploaded pictures a page at a time, or a new upload. */
export function PictureChooser({ open, onClose, onChoose }: PictureChooserProps) {
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const client = useQueryClient();
  const [pageIndex, setPageIndex] = useState(1);
  const [uploading, setUploading] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // Asked while the chooser is open; the page shown stays until the next one is in.
  const query = useQuery({
    queryKey: uploadedImagesKey(pageIndex),
    queryFn: ({ signal }) =>
      getUploadedImages({ pageIndex, pageSize: UPLOADED_PAGE_SIZE }, { signal }),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const page = query.data ?? null;
  const error = query.error ? errorMessage(query.error) : null;

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = imageUploadProblem(file);
    if (problem) {
      void message.error(problem);
      return;
    }
    setUploading(true);
    try {
      const { url } = await uploadImage(file, file.name);
      // The new picture is the newest upload: every page of the list moves.
      void client.invalidateQueries({ queryKey: ['uploaded-images'] });
      void message.success('图片已上传');
      onChoose(url);
    } catch (reason) {
      void message.error(`上传失败：${errorMessage(reason)}`);
    } finally {
      setUploading(false);
    }
  };

  return (
    <Modal title="选择已上传图片" open={open} onCancel={onClose} footer={null} width={720}>
      <Flex vertical gap={12}>
        <Flex gap={8} align="center" wrap>
          <input
            ref={input}
            type="file"
            accept={IMAGE_UPLOAD_MIME_TYPES.join(',')}
            aria-label="上传新图片"
            style={{ display: 'none' }}
            onChange={(event) => void upload(event)}
          />
          <Button
            icon={<UploadOutlined aria-hidden />}
            loading={uploading}
            onClick={() => input.current?.click()}
          >
            上传新图片
          </Button>
          <Typography.Text type="secondary">JPEG、PNG 或 WebP，至多 5 MB</Typography.Text>
        </Flex>
        {error && (
          <Alert
            type="error"
            showIcon
            title={`图片加载失败：${error}`}
            action={
              <Button size="small" onClick={() => void query.refetch()}>
                重试
              </Button>
            }
          />
        )}
        {!page && !error ? (
          <Spin />
        ) : page && page.items.length === 0 ? (
          <Empty description="还没有上传过图片" />
        ) : (
          page && (
            <Flex gap={8} wrap>
              {page.items.map((image) => (
                <button
                  key={image.url}
                  type="button"
                  aria-label={`选择图片 ${image.name}`}
                  onClick={() => onChoose(image.url)}
                  style={{
                    padding: 0,
                    border: `1px solid ${token.colorBorder}`,
                    borderRadius: 4,
                    background: 'none',
                    cursor: 'pointer',
                  }}
                >
                  <img
                    src={mediaUrl(image.url)}
                    alt={image.name}
                    width={96}
                    height={128}
                    style={{ objectFit: 'cover', display: 'block' }}
                  />
                </button>
              ))}
            </Flex>
          )
        )}
        {page && page.total > UPLOADED_PAGE_SIZE && (
          <Pagination
            current={pageIndex}
            pageSize={UPLOADED_PAGE_SIZE}
            total={page.total}
            showSizeChanger={false}
            onChange={setPageIndex}
            style={{ alignSelf: 'center' }}
          />
        )}
      </Flex>
    </Modal>
  );
}
