import { errorMessage } from '@kol/shared-sdk';
import { useEffect, useState } from 'react';
import {
  App,
  AutoComplete,
  Button,
  Card,
  Col,
  Flex,
  Input,
  InputNumber,
  Row,
  Segmented,
  Typography,
} from 'antd';
import { EditOutlined } from '@ant-design/icons';
import type { GenerateTextBody, WritingMode } from '@kol/shared-sdk';
import { ResultActions } from '../components/result-actions';
import { LocalEngineNote } from '../components/local-engine-note';
import { ResultPanel } from '../components/result-panel';
import { TitleIdeas } from '../features/title-ideas/components/title-ideas';
import { VersionList } from '../features/versions/components/version-list';
import {
  readVersions,
  withVersion,
  writeVersions,
  type WritingVersion,
} from '../features/versions/version-store';
import { useGeneration } from '../hooks/use-generation';
import { readWritingDraft, writeWritingDraft } from '../lib/writing-draft';
import { GENRE_OPTIONS, MODES_ON_TEXT, MODE_LABELS } from '../lib/writing-modes';
import { MAX_LENGTH, MAX_TONE_LENGTH, MIN_LENGTH, TONE_OPTIONS } from '../lib/writing-options';

const DEFAULT_LENGTH = 800;
const MAX_SOURCE_LENGTH = 100_000;

/** What a run was for: its mode, and for 续写 the text it continues. */
interface RunMeta {
  mode: WritingMode;
  prefix: string;
}

interface CreateDraft {
  prompt: string;
  genre: string;
  tone: string;
  length: number;
  mode: WritingMode;
  text: string;
  titleText: string;
  chosenTitle: string;
}

const MODE_HINTS: Record<WritingMode, string> = {
  write: '按提示或大纲写一篇新的正文',
  continue: '接着编辑区的正文往下写',
  rewrite: '换一种写法重写编辑区的正文',
  expand: '把编辑区的正文写得更丰满',
  polish: '润色编辑区的正文，保留原意',
  titles: '为正文（没有正文时为提示）想几个标题',
};

/** `/create` 创意写作: a writing desk with the model's help, every finished text kept as a version. */
export function CreatePage() {
  const { message } = App.useApp();
  const [draft] = useState(() => readWritingDraft<CreateDraft>('create'));
  const [prompt, setPrompt] = useState(draft?.prompt ?? '');
  const [genre, setGenre] = useState(draft?.genre ?? '');
  const [tone, setTone] = useState(draft?.tone ?? '');
  const [length, setLength] = useState<number>(draft?.length ?? DEFAULT_LENGTH);
  const [mode, setMode] = useState<WritingMode>(draft?.mode ?? 'write');
  const [text, setText] = useState(draft?.text ?? '');
  const [titleText, setTitleText] = useState(draft?.titleText ?? '');
  const [chosenTitle, setChosenTitle] = useState(draft?.chosenTitle ?? '');
  const [versions, setVersions] = useState<WritingVersion[]>(readVersions);
  const [touched, setTouched] = useState(false);

  const generation = useGeneration<RunMeta>({
    slot: 'create',
    onSettled: (outcome, meta) => {
      if (outcome.status === 'failed' && outcome.error) void message.error(outcome.error);
      if (meta.mode === 'titles') {
        if (outcome.text) setTitleText(outcome.text);
        return;
      }
      if (!outcome.text) return;
      const full = meta.prefix + outcome.text;
      setText(full);
      if (outcome.status === 'succeeded') {
        setVersions((current) => withVersion(current, meta.mode, full));
      }
    },
  });

  useEffect(() => writeVersions(versions), [versions]);

  useEffect(() => {
    if (touched) {
      writeWritingDraft('create', {
        prompt,
        genre,
        tone,
        length,
        mode,
        text,
        titleText,
        chosenTitle,
      } satisfies CreateDraft);
    }
  }, [touched, prompt, genre, tone, length, mode, text, titleText, chosenTitle]);

  const change =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setTouched(true);
    };

  const generate = () => {
    const onText = MODES_ON_TEXT.includes(mode);
    const source = onText ? text : mode === 'titles' ? text.trim() || prompt : prompt;
    if (!source.trim()) {
      void message.warning(
        onText ? `请先在编辑区写下或生成一段正文，再${MODE_LABELS[mode]}` : '请先输入提示或大纲',
      );
      return;
    }
    if (mode !== 'titles') {
      // The user's own edits are a version too: a new run never loses them.
      setVersions((current) => withVersion(current, 'edit', text));
    }
    const body: GenerateTextBody = {
      mode,
      sourceText: source.slice(0, MAX_SOURCE_LENGTH),
      ...(genre.trim() ? { genre: genre.trim().slice(0, MAX_TONE_LENGTH) } : {}),
      ...(tone.trim() ? { tone: tone.trim().slice(0, MAX_TONE_LENGTH) } : {}),
      ...(mode === 'titles' ? {} : { length }),
    };
    setTouched(true);
    void generation.start(body, { mode, prefix: mode === 'continue' ? text : '' });
  };

  const stop = () => {
    generation.stop().catch((error: unknown) => void message.error(errorMessage(error)));
  };

  const restore = (version: WritingVersion) => {
    setVersions((current) => withVersion(current, 'edit', text));
    setText(version.text);
    setTouched(true);
    void message.success('已恢复该版本，当前文本已保留为新版本');
  };

  const runMeta = generation.running ? generation.meta : null;
  const shownText = runMeta && runMeta.mode !== 'titles' ? runMeta.prefix + generation.text : text;
  const shownTitles = runMeta?.mode === 'titles' ? generation.text : titleText;
  const saveTitle = chosenTitle || prompt.trim().split('\n')[0]?.slice(0, 30) || '创意写作';

  return (
    <Flex vertical gap={16} style={{ maxWidth: 1400, width: '100%' }}>
      <Typography.Title level={1} style={{ margin: 0, fontSize: 24 }}>
        创意写作
      </Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <Flex vertical gap={16}>
            <Card title="构思">
              <Flex vertical gap={12}>
                <Input.TextArea
                  aria-label="提示或大纲"
                  data-testid="prompt"
                  placeholder="写下想法、提示或大纲，例如：一个在废土上修复机器人的少女，遇到了会写诗的机器人……"
                  autoSize={{ minRows: 5, maxRows: 14 }}
                  maxLength={MAX_SOURCE_LENGTH}
                  value={prompt}
                  onChange={(event) => change(setPrompt)(event.target.value)}
                />
                <Flex gap={12} wrap>
                  <Flex vertical gap={4} style={{ flex: 1, minWidth: 140 }}>
                    <Typography.Text>题材</Typography.Text>
                    <AutoComplete
                      aria-label="题材"
                      data-testid="genre"
                      placeholder="如 都市、玄幻"
                      value={genre}
                      maxLength={MAX_TONE_LENGTH}
                      options={GENRE_OPTIONS.map((value) => ({ value }))}
                      onChange={(value: string) => change(setGenre)(value)}
                    />
                  </Flex>
                  <Flex vertical gap={4} style={{ flex: 1, minWidth: 140 }}>
                    <Typography.Text>风格</Typography.Text>
                    <AutoComplete
                      aria-label="风格"
                      data-testid="tone"
                      placeholder="如 轻松幽默"
                      value={tone}
                      maxLength={MAX_TONE_LENGTH}
                      options={TONE_OPTIONS.map((value) => ({ value }))}
                      onChange={(value: string) => change(setTone)(value)}
                    />
                  </Flex>
                  <Flex vertical gap={4}>
                    <Typography.Text>字数</Typography.Text>
                    <InputNumber<number>
                      aria-label="字数"
                      data-testid="length"
                      min={MIN_LENGTH}
                      max={MAX_LENGTH}
                      step={100}
                      value={length}
                      onChange={(value) => change(setLength)(value ?? DEFAULT_LENGTH)}
                    />
                  </Flex>
                </Flex>
                <Flex vertical gap={4}>
                  <Typography.Text>模式</Typography.Text>
                  <Segmented<WritingMode>
                    data-testid="mode"
                    value={mode}
                    onChange={change(setMode)}
                    options={(Object.keys(MODE_LABELS) as WritingMode[]).map((value) => ({
                      value,
                      label: MODE_LABELS[value],
                    }))}
                  />
                  <Typography.Text type="secondary">{MODE_HINTS[mode]}</Typography.Text>
                </Flex>
                <Button
                  type="primary"
                  size="large"
                  icon={<EditOutlined aria-hidden />}
                  loading={generation.running}
                  onClick={generate}
                  data-testid="generate"
                >
                  {MODE_LABELS[mode]}
                </Button>
                <LocalEngineNote />
              </Flex>
            </Card>
            <Card title="标题建议">
              <TitleIdeas
                text={shownTitles}
                chosen={chosenTitle}
                onChoose={change(setChosenTitle)}
              />
            </Card>
            <Card title="历史版本">
              <VersionList
                versions={versions}
                disabled={generation.running}
                onRestore={restore}
                onClear={() => setVersions([])}
              />
            </Card>
          </Flex>
        </Col>
        <Col xs={24} lg={14}>
          <Card title="正文">
            <ResultPanel
              text={shownText}
              onTextChange={change(setText)}
              status={generation.status}
              engine={generation.engine}
              error={generation.error}
              onStop={stop}
              onRegenerate={generate}
              label="正文"
              placeholder="在这里写作，或让 AI 按左侧的构思写一篇；续写、改写、扩写、润色都作用于这里的正文。"
              actions={
                <ResultActions
                  key={generation.taskId ?? 'draft'}
                  text={shownText}
                  defaultTitle={saveTitle}
                  disabled={generation.running}
                />
              }
            />
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}
