import { Col, Row } from 'antd';
import type { ConvertForm } from '../api/use-convert-form';
import type { ConvertDraftUpdate } from '../convert-flow';
import type { ConvertDraft } from '../draft';
import { ScriptCard } from './script-card';
import { VoiceAspectCards } from './voice-aspect-cards';

interface ScriptSectionProps {
  draft: ConvertDraft;
  update: ConvertDraftUpdate;
  form: ConvertForm;
  textModel: boolean | null;
  phone: boolean;
}

/** 文案与配音: the script beside its voice and the video's aspect (one column on a phone). */
export function ScriptSection({ draft, update, form, textModel, phone }: ScriptSectionProps) {
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={phone ? 24 : 14}>
        <ScriptCard
          draft={draft}
          onScriptChange={(script) => update((current) => ({ ...current, script }))}
          textModel={textModel}
          extracting={form.extracting}
          rewriting={form.rewriting}
          canUndo={form.beforeRewrite !== null}
          onExtract={() => void form.extract()}
          onRewrite={() => void form.rewrite()}
          onUndo={form.undoRewrite}
        />
      </Col>
      <Col xs={24} lg={phone ? 24 : 10}>
        <VoiceAspectCards
          settings={draft.settings}
          sampleText={draft.script}
          onChange={form.changeSettings}
        />
      </Col>
    </Row>
  );
}
