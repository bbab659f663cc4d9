import { Alert, Button, Card, Flex } from 'antd';
import { sessionStore } from '@kol/shared-sdk';
import { TextSourceCard } from '../../../flow-kit/text-source/components/text-source-card';
import { MAX_VIDEO_TEXT_CHARS } from '../../../flow-kit/video-text';
import type { DecompressionForm } from '../api/use-decompression-form';
import { MaterialPicker } from './material-picker';

/**
 * The narration (typed, a file, 我的文案 or a book chapter) with its title, an overseas
 * video's English check with 翻译为英文, and the looping background behind it.
 */
export function NarrationSection({ form }: { form: DecompressionForm }) {
  const { draft, englishProblem } = form;
  return (
    <Flex vertical gap={16}>
      <TextSourceCard
        text={draft.text}
        onTextChange={form.changeText}
        title={draft.title}
        onTitleChange={form.changeTitle}
        onChapterPicked={(chapterId) => sessionStore.set('chapterId', chapterId)}
        problem={form.problem}
        maxChars={MAX_VIDEO_TEXT_CHARS}
        handedOver={form.handedOver}
        overseas={form.overseas}
        textLabel="旁白文案"
      />
      {englishProblem && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={englishProblem}
          description="英文配音读不了中文，生成前请换成英文文案。"
          action={
            form.canTranslate ? (
              <Button size="small" loading={form.translating} onClick={() => void form.translate()}>
                翻译为英文
              </Button>
            ) : undefined
          }
        />
      )}
      <Card title="背景画面" size="small">
        <MaterialPicker
          value={draft.settings.backgroundMaterialId}
          onChange={(backgroundMaterialId) => form.changeSettings({ backgroundMaterialId })}
          onBusyChange={form.setUploading}
        />
      </Card>
    </Flex>
  );
}
