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

interface BookUploadProps {
  onUploaded: (book: BookDetail) => void;
}

/** 上传书籍: a TXT or EPUB file into the user's local library (`upload_book`). */
export function BookUpload({ onUploaded }: BookUploadProps) {
  const { message } = App.useApp();
  const [uploading, setUploading] = useState(false);

  // Refused files never reach the server: checked here, before antd would send anything.
  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const problem = bookFileProblem(file);
    if (problem) {
      void message.error(problem);
      return Upload.LIST_IGNORE;
    }
    return true;
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
      <Button icon={<UploadOutlined aria-hidden />} loading={uploading} data-testid="book-upload">
        上传书籍（TXT/EPUB）
      </Button>
    </Upload>
  );
}
