import { useEffect } from 'react';
import { Alert, App, Button, Flex, Select, Typography } from 'antd';
import { ttsAudition, ttsTry, voiceEngineNote, errorMessage } from '@kol/shared-sdk';
import { AudioPreview } from '../../../components/audio-preview';
import { useVoices } from '../../../hooks/use-voices';

/** What an audition says when the page has no text of its own yet. */
const SAMPLE = { zh: '你好，欢迎收看本期视频。', en: 'Hello, and welcome to this video.' };
/** Auditions are short: the server speaks at most 300 characters. */
const AUDITION_CHARS = 60;

interface VoicePickerProps {
  language: 'zh' | 'en';
  value: string | undefined;
  onChange: (voiceId: string) => void;
  speed: number;
  /** The page's own text: its first characters are what the audition says. */
  sampleText?: string;
  /** Which call speaks the audition: the video's (`tts_audition`) or the speech tool's (`tts_try`). */
  audition?: 'video' | 'tool';
  /** The select's and the audition's names, where a page has several pickers (one per role). */
  label?: string;
  auditionLabel?: string;
  /**
   * With no voice chosen, this one is (a role's default of its gender, see the SDK's
   * defaultVoices); absent or unknown: the list's first.
   */
  defaultVoiceId?: string | undefined;
  /**
   * Whether the picker says which engine speaks the voices (one line under it). A page with a
   * picker per role shows it under one picker only: it is said once.
   */
  engineNote?: boolean;
}

/**
 * 配音: a voice of the language by its plain name, with a play button that speaks a short
 * audition in it at the chosen speed, and once which engine speaks them (voiceEngineNote). With
 * no voice chosen yet, the first one is chosen (what the server uses too).
 */
export function VoicePicker({
  language,
  value,
  onChange,
  speed,
  sampleText,
  audition = 'video',
  label = '配音音色',
  auditionLabel = '试听配音',
  defaultVoiceId,
  engineNote = true,
}: VoicePickerProps) {
  const { message } = App.useApp();
  const { voices, loading, error, reload } = useVoices(language);
  const known = voices.some((voice) => voice.voiceId === value);
  const first = voices.some((voice) => voice.voiceId === defaultVoiceId)
    ? defaultVoiceId
    : voices[0]?.voiceId;

  useEffect(() => {
    if (!known && first) onChange(first);
    // onChange is the caller's setter; only the list and the choice matter here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [known, first]);

  const listen = async () => {
    if (!value) throw new Error('no voice');
    const text = (sampleText?.trim() || SAMPLE[language]).slice(0, AUDITION_CHARS);
    const body = { text, voiceId: value, speed };
    try {
      const clip = audition === 'video' ? await ttsAudition(body) : await ttsTry(body);
      return clip.audioUrl;
    } catch (reason) {
      void message.error(`试听失败：${errorMessage(reason)}`);
      throw reason;
    }
  };

  if (error) {
    return (
      <Alert
        type="error"
        showIcon
        title={`配音音色加载失败：${error}`}
        action={
          <Button size="small" onClick={reload}>
            重新加载
          </Button>
        }
      />
    );
  }
  const note = engineNote ? voiceEngineNote(voices) : null;
  return (
    <Flex vertical gap={4}>
      <Flex gap={8} align="center">
        <Select
          aria-label={label}
          style={{ flex: 1, minWidth: 0 }}
          loading={loading}
          value={known ? value : undefined}
          placeholder="选择配音音色"
          onChange={onChange}
          options={voices.map((voice) => ({ value: voice.voiceId, label: voice.name }))}
        />
        <AudioPreview label={auditionLabel} load={listen} disabled={!known} />
      </Flex>
      {note && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {note}
        </Typography.Text>
      )}
    </Flex>
  );
}
