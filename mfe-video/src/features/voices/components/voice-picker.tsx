import { useEffect } from 'react';
import { Alert, App, Button, Flex, Select } from 'antd';
import { ttsAudition, ttsTry, type Voice, errorMessage } from '@kol/shared-sdk';
import { AudioPreview } from '../../../components/audio-preview';
import { useVoices } from '../api/use-voices';

const GENDER: Record<Voice['gender'], string> = { female: '女声', male: '男声', neutral: '中性' };
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
  /** With no voice chosen, the list's voice at this place is chosen (several roles, several voices). */
  defaultIndex?: number;
}

/**
 * 配音: a voice of the language, with a play button that speaks a short audition in it at the
 * chosen speed. With no voice chosen yet, the first one is chosen (what the server uses too).
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
  defaultIndex = 0,
}: VoicePickerProps) {
  const { message } = App.useApp();
  const { voices, loading, error, reload } = useVoices(language);
  const known = voices.some((voice) => voice.voiceId === value);
  const first = voices.length > 0 ? voices[defaultIndex % voices.length]?.voiceId : undefined;

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
  return (
    <Flex gap={8} align="center">
      <Select
        aria-label={label}
        style={{ flex: 1, minWidth: 0 }}
        loading={loading}
        value={known ? value : undefined}
        placeholder="选择配音音色"
        onChange={onChange}
        options={voices.map((voice) => ({
          value: voice.voiceId,
          label: `${voice.name}（${GENDER[voice.gender]} · ${voice.engine}）`,
        }))}
      />
      <AudioPreview label={auditionLabel} load={listen} disabled={!known} />
    </Flex>
  );
}
