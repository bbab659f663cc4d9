import { extractConvertScript } from '@kol/shared-sdk';
import type { ConvertDraft } from '../draft';

const SOURCE_NAMES = { subtitles: '视频的字幕轨', transcription: '语音转写', none: '' } as const;

/** The source's own script (`convert_script`), with a note naming where it came from. */
export async function extractScript(url: string): Promise<NonNullable<ConvertDraft['extracted']>> {
  const answer = await extractConvertScript({ sourceVideoUrl: url });
  const from = SOURCE_NAMES[answer.from];
  const note =
    answer.from === 'none'
      ? (answer.missing ?? '没有从视频中提取到脚本，请在「文案」中填写')
      : `已从${from}${answer.engine ? `（${answer.engine}）` : ''}提取脚本`;
  return { script: answer.script, from: answer.from, note };
}
