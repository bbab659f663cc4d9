import { Button } from 'antd';
import { GenerateVideoButton } from '../../../flow-kit/generate-video/components/generate-video-button';
import type { ConvertForm } from '../api/use-convert-form';
import { CONVERT_TYPE } from '../convert-flow';

interface StepActionsProps {
  form: ConvertForm;
  /** The render started: where its progress is followed. */
  onStarted: (workId: number) => void;
}

/**
 * Each step's buttons: on to the next step, back, and on the last one 生成视频. Not boxed: the
 * page's action bar lays them out (on a phone the primary one takes the rest of the row).
 */
export function StepActions({ form, onStarted }: StepActionsProps) {
  if (form.step === 'source') {
    return (
      <Button
        type="primary"
        loading={form.extracting}
        disabled={form.uploading}
        onClick={() => void form.toScript()}
      >
        下一步：文案与配音
      </Button>
    );
  }
  if (form.step === 'script') {
    return (
      <>
        <Button onClick={() => form.go('source')}>上一步</Button>
        <Button
          type="primary"
          loading={form.saving || form.toRender.busy}
          onClick={() => void form.toRender.run()}
        >
          下一步：去重与生成
        </Button>
      </>
    );
  }
  return (
    <>
      <Button onClick={() => form.go('script')}>上一步</Button>
      <GenerateVideoButton
        type={CONVERT_TYPE}
        workId={form.saveForRender}
        prepare={form.checkScript}
        onStarted={(_taskId, id) => onStarted(id)}
      />
    </>
  );
}
