import { useState } from 'react';
import { Alert, App, Button, Card, Flex, Input, Segmented, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { readTextFile, textFileProblem } from '../text-file';
import { BookChapterPicker } from './book-chapter-picker';
import { MyCopyPicker } from './my-copy-picker';

type Source = 'input' | 'myCopy' | 'book';

interface TextSourceCardProps {
  text: string;
  onTextChange: (text: string) => void;
  title: string;
  onTitleChange: (title: string) => void;
  /** A book chapter became the text (its id is remembered). */
  onChapterPicked: (chapterId: number) => void;
  /** Why the text cannot be used, shown under it. */
  problem: string | null;
  maxChars: number;
  /** The text came from 发送到视频 / 用于视频. */
  handedOver: boolean;
  overseas: boolean;
  /** The card's title and the text box's name, for a flow whose text is not a narration. */
  textLabel?: string;
  placeholder?: string;
}

/**
 * The video's text: typed or pasted (or a .txt imported), taken from 我的文案, or a book chapter.
 * Whatever the source, the text stays editable here before the next step.
 */
export function TextSourceCard({
  text,
  onTextChange,
  title,
  onTitleChange,
  onChapterPicked,
  problem,
  maxChars,
  handedOver,
  overseas,
  textLabel = '视频文案',
  placeholder = '粘贴或输入要做成视频的文案，一句一行更容易分镜',
}: TextSourceCardProps) {
  const { message } = App.useApp();
  const [source, setSource] = useState<Source>('input');

  const take = (value: string, workTitle: string) => {
    onTextChange(value);
    if (!title.trim()) onTitleChange(workTitle);
    setSource('input');
    void message.success('已带入文案，可以继续修改');
  };

  const importFile = async (file: File) => {
    const wrong = textFileProblem(file);
    if (wrong) {
      void message.error(wrong);
      return;
    }
    try {
      take(await readTextFile(file), file.name.replace(/\.txt$/i, ''));
    } catch {
      void message.error('文件读取失败，请确认是文本文件后重试');
    }
  };

  return (
    <Card title={textLabel} size="small">
      <Flex vertical gap={12}>
        {handedOver && (
          <Alert
            type="success"
            showIcon
            title="已带入文案（来自「发送到视频」「用于视频」或上次未完成的编辑），可以继续修改"
          />
        )}
        {overseas && (
          <Alert
            type="info"
            showIcon
            title="海外版用英文配音和英文字幕：请填写英文文案；中文文案只有在服务端配置了文本模型时才会自动翻译。"
          />
        )}
        <Segmented<Source>
          aria-label="文案来源"
          value={source}
          onChange={setSource}
          options={[
            { value: 'input', label: '直接输入' },
            { value: 'myCopy', label: '我的文案' },
            { value: 'book', label: '书籍章节' },
          ]}
        />
        {source === 'myCopy' && <MyCopyPicker onPick={take} />}
        {source === 'book' && (
          <BookChapterPicker
            onPick={(value, bookTitle, chapterId) => {
              onChapterPicked(chapterId);
              take(value, bookTitle);
            }}
          />
        )}
        <Input
          aria-label="作品标题"
          placeholder="作品标题（不填则取文案开头）"
          maxLength={100}
          value={title}
          onChange={(event) => onTitleChange(event.target.value)}
        />
        <Input.TextArea
          aria-label={textLabel}
          placeholder={placeholder}
          autoSize={{ minRows: 8, maxRows: 20 }}
          value={text}
          status={problem ? 'error' : undefined}
          onChange={(event) => onTextChange(event.target.value)}
        />
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Upload
            accept=".txt,text/plain"
            showUploadList={false}
            beforeUpload={(file) => {
              void importFile(file);
              return false;
            }}
          >
            <Button icon={<UploadOutlined aria-hidden />}>导入 TXT</Button>
          </Upload>
          <Typography.Text type={text.length > maxChars ? 'danger' : 'secondary'}>
            {text.length} / {maxChars} 字
          </Typography.Text>
        </Flex>
        {problem && (
          <Typography.Text type="danger" role="alert">
            {problem}
          </Typography.Text>
        )}
      </Flex>
    </Card>
  );
}
