import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Flex,
  Input,
  Radio,
  Row,
  Skeleton,
  Steps,
  Typography,
} from 'antd';
import { useAtomValue } from 'jotai';
import { Link, useSearchParams } from '@kol/shared-sdk/router';
import { useRevisionedSave, useSingleFlight } from '@kol/shared-sdk/ui';
import {
  canUseProjectType,
  isApiError,
  remainingGenerations,
  type ConvertDraft,
  errorMessage,
} from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { NoPermission } from '../components/no-permission';
import { PageFrame } from '../components/page-frame';
import { QuotaUsedUp } from '../components/quota-used-up';
import { saveConvertWork } from '../features/convert-source/api/save-convert-work';
import { draftOfWork, useConvertDraft } from '../features/convert-source/api/use-convert-draft';
import { SourceVideoCard } from '../features/convert-source/components/source-video-card';
import { extractScript, rewriteScript } from '../features/convert-script/api/script-calls';
import { useSavedPresets } from '../features/dedup-presets/api/use-saved-presets';
import { DedupPresetsForm } from '../features/dedup-presets/components/dedup-presets-form';
import { GenerateVideoButton } from '../features/generate-video/components/generate-video-button';
import { VoicePicker } from '../features/voices/components/voice-picker';
import { useSavedWork } from '../hooks/use-saved-work';
import { useUsageLimits } from '../hooks/use-usage-limits';
import {
  CONVERT_STEPS,
  CONVERT_TYPE,
  MAX_SCRIPT_CHARS,
  convertPath,
  scriptProblem,
  stepOf,
  workIdOf,
  type ConvertStep,
  type KeptConvertDraft,
} from '../lib/convert-flow';
import { usePageNavigate, usePhoneLayout } from '../lib/phone';

const STEP_TITLES = ['上传原视频', '文案与配音', '去重与生成'];

/** Why a save failed, in Chinese: the server's reason, or the page's own (the work not read). */
const saveProblem = (reason: unknown) =>
  reason instanceof Error && !isApiError(reason) ? reason.message : errorMessage(reason);

type DraftUpdate = (change: (current: KeptConvertDraft) => KeptConvertDraft) => void;

function ConvertForm({ draft, update }: { draft: KeptConvertDraft; update: DraftUpdate }) {
  const { message } = App.useApp();
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const [params] = useSearchParams();
  const step = stepOf(params.get('step'));
  const { saved: savedPresets } = useSavedPresets();
  const [uploading, setUploading] = useState(false);
  const [extracting, setExtracting] = useState(false);
  const [rewriting, setRewriting] = useState(false);
  const [saving, setSaving] = useState(false);
  const [beforeRewrite, setBeforeRewrite] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const workIdRef = useRef<number | null>(draft.workId);
  const revisionedSave = useRevisionedSave();
  const savedWork = useSavedWork(draft.workId, draft.saved);
  const left = useRef(false);
  useEffect(
    () => () => {
      left.current = true;
    },
    [],
  );

  const go = (to: ConvertStep) => {
    setProblem(null);
    navigate(convertPath(to, workIdRef.current));
  };

  const extract = async (): Promise<boolean> => {
    if (!draft.source) return false;
    setExtracting(true);
    try {
      const extracted = await extractScript(draft.source.url);
      update((current) => ({
        ...current,
        extracted,
        // The user's typing wins; an empty box takes what the video says.
        script: current.script.trim() ? current.script : extracted.script,
      }));
      return true;
    } catch (reason) {
      void message.error(`提取脚本失败：${errorMessage(reason)}`);
      return false;
    } finally {
      setExtracting(false);
    }
  };

  const toScript = async () => {
    if (!draft.source) {
      setProblem('请先上传「原视频」');
      return;
    }
    if (!draft.extracted && !(await extract())) return;
    go('script');
  };

  const rewrite = async () => {
    const found = scriptProblem(draft.script);
    if (found) {
      setProblem(found);
      return;
    }
    setRewriting(true);
    try {
      const original = draft.script;
      const { text, engine } = await rewriteScript(original, () => left.current);
      setBeforeRewrite(original);
      update((current) => ({ ...current, script: text }));
      void message.success(`已由 ${engine} 改写，可继续修改`);
    } catch (reason) {
      void message.error(
        reason instanceof Error && reason.message ? reason.message : errorMessage(reason),
      );
    } finally {
      setRewriting(false);
    }
  };

  /** The script can be rendered; false (with the reason shown) when it cannot. Makes nothing. */
  const checkScript = async (): Promise<boolean> => {
    const found = scriptProblem(draft.script);
    setProblem(found);
    return found === null;
  };

  /**
   * Saves the work (made on the first save; saved over on the revision the draft was read or
   * last saved at) and answers its id, or null when the person chose the newest work instead
   * (it then replaces this page's draft); a failure rejects.
   */
  const saveWork = async (): Promise<number | null> => {
    const over = draft.workId !== null ? await savedWork.base() : null;
    if (draft.workId !== null && !over) throw new Error(savedWork.problem());
    setSaving(true);
    try {
      const now = await saveConvertWork(draft, over, revisionedSave, (saved) => {
        workIdRef.current = saved.workId;
        // Kept with the draft: the next save, after a reload too, is based on this revision.
        update((current) => ({ ...current, workId: saved.workId, saved }));
      });
      if (!now) {
        // The person chose the work as saved elsewhere: it replaces this page's draft.
        const newest = await savedWork.takeNewest();
        if (newest) update(() => draftOfWork(newest));
        return null;
      }
      return now.workId;
    } finally {
      setSaving(false);
    }
  };

  /** 确认生成's save: the latest script and settings onto the work before it renders. */
  const saveForRender = async (): Promise<number | null> => {
    try {
      return await saveWork();
    } catch (reason) {
      throw new Error(`保存作品失败：${saveProblem(reason)}`, { cause: reason });
    }
  };

  // The script is done: the work is made (or updated) now, so it can be opened again. Once per
  // click: a double click makes one work.
  const toRender = useSingleFlight(async () => {
    if (!(await checkScript())) return;
    try {
      if ((await saveWork()) !== null) go('render');
    } catch (reason) {
      void message.error(`保存作品失败：${saveProblem(reason)}`);
    }
  });

  const changeSettings = (patch: Partial<ConvertDraft['settings']>) =>
    update((current) => ({ ...current, settings: { ...current.settings, ...patch } }));

  const actions =
    step === 'source' ? (
      <Button
        type="primary"
        loading={extracting}
        disabled={uploading}
        onClick={() => void toScript()}
      >
        下一步：文案与配音
      </Button>
    ) : step === 'script' ? (
      <Flex gap={8}>
        <Button onClick={() => go('source')}>上一步</Button>
        <Button
          type="primary"
          loading={saving || toRender.busy}
          onClick={() => void toRender.run()}
        >
          下一步：去重与生成
        </Button>
      </Flex>
    ) : (
      <Flex gap={8}>
        <Button onClick={() => go('script')}>上一步</Button>
        <GenerateVideoButton
          type={CONVERT_TYPE}
          workId={saveForRender}
          prepare={checkScript}
          block={phone}
          onStarted={(_taskId, id) => navigate(`/video/production?workId=${id}`)}
        />
      </Flex>
    );

  return (
    <PageFrame
      title="反推视频"
      steps={
        <Steps
          size="small"
          current={CONVERT_STEPS.indexOf(step)}
          items={STEP_TITLES.map((title) => ({ title }))}
        />
      }
      actions={actions}
    >
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        上传一段视频，从它的字幕轨（或语音转写）取出脚本，改写后换上新的配音，再用去重设置处理原画面，合成一条新视频。
      </Typography.Paragraph>
      {problem && <Alert type="error" showIcon title={problem} />}
      {step === 'source' && (
        <Flex vertical gap={16}>
          <SourceVideoCard
            source={draft.source}
            onBusyChange={setUploading}
            onUploaded={(source) => {
              setProblem(null);
              // A new clip has its own script: the old one's is read again on the next step.
              update((current) => ({ ...current, source, extracted: null }));
            }}
          />
          <Card size="small" title="作品">
            <Input
              aria-label="作品标题"
              placeholder="不填则取视频文件名"
              maxLength={100}
              showCount
              value={draft.title}
              onChange={(event) => update((current) => ({ ...current, title: event.target.value }))}
            />
          </Card>
        </Flex>
      )}
      {step === 'script' && (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={phone ? 24 : 14}>
            <Card
              size="small"
              title="文案"
              extra={
                <Flex gap={8}>
                  <Button size="small" loading={extracting} onClick={() => void extract()}>
                    重新提取
                  </Button>
                  <Button size="small" loading={rewriting} onClick={() => void rewrite()}>
                    改写文案
                  </Button>
                  {beforeRewrite !== null && (
                    <Button
                      size="small"
                      onClick={() => {
                        update((current) => ({ ...current, script: beforeRewrite }));
                        setBeforeRewrite(null);
                      }}
                    >
                      撤销改写
                    </Button>
                  )}
                </Flex>
              }
            >
              <Flex vertical gap={8}>
                {draft.extracted && (
                  <Alert
                    type={draft.extracted.from === 'none' ? 'warning' : 'info'}
                    showIcon
                    title={draft.extracted.note}
                  />
                )}
                <Input.TextArea
                  aria-label="反推文案"
                  autoSize={{ minRows: 8, maxRows: 20 }}
                  maxLength={MAX_SCRIPT_CHARS}
                  showCount
                  placeholder="新视频要配音的脚本，每句一行"
                  value={draft.script}
                  onChange={(event) =>
                    update((current) => ({ ...current, script: event.target.value }))
                  }
                />
              </Flex>
            </Card>
          </Col>
          <Col xs={24} lg={phone ? 24 : 10}>
            <Flex vertical gap={16}>
              <Card size="small" title="配音">
                <VoicePicker
                  language="zh"
                  value={draft.settings.voiceId}
                  onChange={(voiceId) => changeSettings({ voiceId })}
                  speed={draft.settings.speed ?? 1}
                  sampleText={draft.script}
                />
              </Card>
              <Card size="small" title="画面">
                <Radio.Group
                  aria-label="画面比例"
                  name="convert-aspect"
                  optionType="button"
                  value={draft.settings.aspect}
                  onChange={(event) =>
                    changeSettings({
                      aspect: event.target.value as ConvertDraft['settings']['aspect'],
                    })
                  }
                  options={[
                    { value: '9:16', label: '竖屏 9:16' },
                    { value: '16:9', label: '横屏 16:9' },
                  ]}
                />
              </Card>
            </Flex>
          </Col>
        </Row>
      )}
      {step === 'render' && (
        <Card
          size="small"
          title="去重设置"
          extra={
            <Button
              size="small"
              disabled={!savedPresets}
              onClick={() => savedPresets && changeSettings({ dedup: savedPresets })}
            >
              使用我的去重设置
            </Button>
          }
        >
          <DedupPresetsForm
            value={draft.settings.dedup ?? {}}
            onChange={(dedup) => changeSettings({ dedup })}
          />
          <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0', fontSize: 12 }}>
            原画面去掉声音后按设置处理，循环或截取到新配音的长度；字幕按新文案逐句显示。
          </Typography.Paragraph>
        </Card>
      )}
    </PageFrame>
  );
}

/** The draft of the work in the address (read from the server in a fresh tab), or a new one. */
function ConvertDraftLoader({ workId }: { workId: number | null }) {
  const { draft, loadError, update, retry } = useConvertDraft(workId);
  if (loadError) {
    return (
      <PageFrame title="反推视频">
        <Alert
          type="error"
          showIcon
          title={loadError}
          action={
            <Flex gap={8}>
              <Button size="small" onClick={retry}>
                重新加载
              </Button>
              <Link to="/convertConfig">
                <Button size="small" type="primary">
                  新建反推视频
                </Button>
              </Link>
            </Flex>
          }
        />
      </PageFrame>
    );
  }
  if (!draft) {
    return (
      <PageFrame title="反推视频">
        <Skeleton active />
      </PageFrame>
    );
  }
  return <ConvertForm draft={draft} update={update} />;
}

/**
 * `/convertConfig` 反推视频: upload the source, read and rewrite its script, choose the voice,
 * the de-duplication presets, render. Functional level 0 (or no template) cannot use it (spec
 * section 6; the host hides the entry, the page checks too); no count left blocks it.
 */
export function ConvertConfigPage() {
  const user = useAtomValue(currentUserAtom);
  const [params] = useSearchParams();
  const workId = workIdOf(params);
  const { limits } = useUsageLimits();
  if (!canUseProjectType(user, CONVERT_TYPE)) return <NoPermission type={CONVERT_TYPE} />;
  if (limits && remainingGenerations(limits, CONVERT_TYPE) <= 0) {
    return <QuotaUsedUp type={CONVERT_TYPE} />;
  }
  return <ConvertDraftLoader key={workId ?? 'new'} workId={workId} />;
}
