import { useState } from 'react';
import { Alert, Button, Card, Flex, Input, Segmented, Slider, Typography } from 'antd';
import { sessionStore } from '@kol/shared-sdk';
import { PageFrame } from '../../components/page-frame';
import { VoicePicker } from '../../flow-kit/voices/components/voice-picker';
import { useSpeech } from './api/use-speech';
import { ApplyVoice } from './components/apply-voice';
import { SpeechProgress } from './components/speech-progress';
import { SpeechResult } from './components/speech-result';
import { MAX_SPEECH_CHARS, SHORT_SPEECH_CHARS, speechTextProblem } from './validation';

/**
 * `/tts` 文字转语音 (outside the layout): text, voice, speed, audition, the voice applied to a
 * work (应用到作品), then the speech to play and download. The text is kept in `KOL_TTS_CONTENT`, so a reload loses nothing.
 */
export function TtsScreen() {
  const [text, setText] = useState(() => sessionStore.get('ttsContent') ?? '');
  const [language, setLanguage] = useState<'zh' | 'en'>('zh');
  const [voiceId, setVoiceId] = useState<string | undefined>(undefined);
  const [speed, setSpeed] = useState(1);
  const speech = useSpeech();
  // Why 合成语音 cannot act yet, said beside it while it is disabled: a creator who clicks
  // never sees nothing happen (an empty text, a text with nothing to read, no voice yet).
  const textProblem = speechTextProblem(text);
  const blocked = textProblem ?? (voiceId ? null : '请先选择配音音色');

  const changeText = (value: string) => {
    setText(value);
    sessionStore.set('ttsContent', value);
  };

  const synthesise = () => {
    if (blocked || !voiceId) return;
    void speech.speak(text, voiceId, speed);
  };

  return (
    <PageFrame title="文字转语音" outside>
      <Card size="small">
        <Flex vertical gap={12}>
          <Input.TextArea
            aria-label="要合成的文本"
            placeholder="输入或粘贴要转成语音的文本"
            rows={10}
            value={text}
            status={textProblem && text ? 'error' : undefined}
            onChange={(event) => changeText(event.target.value)}
          />
          <Flex justify="space-between" wrap gap={8}>
            <Typography.Text type="secondary">
              {text.length > SHORT_SPEECH_CHARS
                ? '长文本会分段合成，完成后可以播放和下载'
                : `${SHORT_SPEECH_CHARS} 字以内立即合成`}
            </Typography.Text>
            <Typography.Text type={text.length > MAX_SPEECH_CHARS ? 'danger' : 'secondary'}>
              {text.length} / {MAX_SPEECH_CHARS} 字
            </Typography.Text>
          </Flex>
          <Flex gap={12} wrap align="center">
            <Segmented<'zh' | 'en'>
              aria-label="语言"
              value={language}
              onChange={(value) => {
                setLanguage(value);
                setVoiceId(undefined);
              }}
              options={[
                { value: 'zh', label: '中文' },
                { value: 'en', label: '英文' },
              ]}
            />
            <div style={{ flex: 1, minWidth: 240 }}>
              <VoicePicker
                language={language}
                value={voiceId}
                onChange={setVoiceId}
                speed={speed}
                sampleText={text}
                audition="tool"
              />
            </div>
          </Flex>
          <Flex align="center" gap={12}>
            <Typography.Text>语速 {speed.toFixed(1)}×</Typography.Text>
            <Slider
              ariaLabelForHandle="语速"
              style={{ flex: 1 }}
              min={0.5}
              max={2}
              step={0.1}
              value={speed}
              onChange={(value: number) => setSpeed(value)}
            />
          </Flex>
          <ApplyVoice language={language} voiceId={voiceId} speed={speed} />
          <Flex vertical gap={4}>
            <Button
              type="primary"
              loading={speech.speaking || speech.running}
              disabled={blocked !== null}
              aria-describedby={blocked ? 'tts-blocked' : undefined}
              onClick={synthesise}
            >
              合成语音
            </Button>
            {blocked && (
              <Typography.Text
                id="tts-blocked"
                role="status"
                // Nothing typed yet is a hint; a text that cannot be spoken is an error.
                type={textProblem && text ? 'danger' : 'secondary'}
              >
                {blocked}
              </Typography.Text>
            )}
          </Flex>
        </Flex>
      </Card>
      {speech.running && <SpeechProgress task={speech.task} startedAt={speech.startedAt} />}
      {speech.error && <Alert type="error" showIcon title={`合成进度获取失败：${speech.error}`} />}
      {speech.task?.state === 'failed' && (
        <Alert
          type="error"
          showIcon
          title={`合成失败：${speech.task.error ?? '未知原因'}`}
          action={
            <Button size="small" onClick={() => void speech.acknowledge()}>
              知道了
            </Button>
          }
        />
      )}
      {speech.output && (
        <Card size="small" title="合成结果">
          <SpeechResult output={speech.output} />
        </Card>
      )}
    </PageFrame>
  );
}
