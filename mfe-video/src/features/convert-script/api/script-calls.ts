import {
  extractConvertScript,
  generateText,
  getGenResult,
  type ConvertDraft,
} from '@kol/shared-sdk';

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

const POLL_MS = 1000;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The script rewritten as a new narration by the writing engine (`generate`, mode rewrite, then
 * `gen_result` until it ends): the chat model when one is configured, else the local writer;
 * the answer names which one wrote it.
 */
export async function rewriteScript(
  script: string,
  isStopped: () => boolean,
): Promise<{ text: string; engine: string }> {
  const { taskId } = await generateText({ sourceText: script, kind: 'narration', mode: 'rewrite' });
  for (;;) {
    const result = await getGenResult({ taskId });
    if (result.state === 'succeeded') return { text: result.text, engine: result.engine };
    if (result.state === 'failed' || result.state === 'cancelled') {
      throw new Error(`改写失败：${result.error ?? '写作服务没有给出原因'}`);
    }
    if (isStopped()) throw new Error('改写已取消');
    await wait(POLL_MS);
  }
}
