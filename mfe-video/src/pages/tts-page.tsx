import { TtsScreen } from '../features/speech/tts-screen';

/** `/tts` 文字转语音: the speech tool. */
export function TtsPage() {
  return <TtsScreen />;
}
