import { useState } from 'react';
import { App, Button, Upload, type UploadProps } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import {
  BOOK_FILE_EXTENSIONS,
  bookFileProblem,
  uploadBook,
  type BookDetail,
  errorMessage,
} from '@kol/shared-sdk';

/** 上传书籍: a TXT or EPUB into the user's local library (`upload_book`), chosen at once. */
export function BookUpload({ onUploaded }: { onUploaded: (book: BookDetail) => void }) {
  const { message } = App.useApp();
  const [uploading, setUploading] = useState(false);
  // A refused file never reaches the server: the SDK's check, before antd would send it.
  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const problem = bookFileProblem(file);
    if (!problem) return true;
    void message.error(problem);
    return Upload.LIST_IGNORE;
  };
  const customRequest: UploadProps['customRequest'] = async ({ file, onSuccess, onError }) => {
    if (!(file instanceof Blob)) return;
    setUploading(true);
    try {
      const book = await uploadBook(file, 'name' in file ? file.name : 'book.txt');
      onSuccess?.(book);
      void message.success(`《${book.title}》已加入本地书库，共 ${book.chapters.length} 章`);
      onUploaded(book);
    } catch (error) {
      onError?.(error as Error);
      void message.error(errorMessage(error));
    } finally {
      setUploading(false);
    }
  };
  return (
    <Upload
      accept={BOOK_FILE_EXTENSIONS.join(',')}
      showUploadList={false}
      maxCount={1}
      beforeUpload={beforeUpload}
      customRequest={customRequest}
    >
      <Button icon={<UploadOutlined aria-hidden />} loading={uploading}>
        上传书籍（TXT/EPUB）
      </Button>
    </Upload>
  );
}
