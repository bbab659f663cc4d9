import type { TextKind, WritingMode } from '@kol/shared-sdk/contracts';
import { condense } from '../text/analysis';
import type { TextRequest } from './types';

/**
 * Chat messages for a model. Long sources are condensed by TextRank to a budget first, so ten
 * chapters fit any model's context and the request stays fast.
 */
const SOURCE_BUDGET_CHARS = 12_000;

const KIND_TASK: Record<TextKind, string> = {
  promo:
    '写一篇小说推文（推广文案）：开头一句抓人的钩子，中间概括情节与看点，结尾留一个悬念问题，吸引读者去看原书。',
  narration:
    '写一段短视频解说文案：口语化，短句为主，每句单独一行，适合配音朗读，按情节顺序讲述，结尾留悬念。',
  spoken: '写一段短视频口播文案：第一句抓人，口语化、有感染力，简短有力，结尾引导评论或去看书。',
};

const MODE_TASK: Record<WritingMode, string> = {
  write: '根据用户给出的提示或大纲写一段小说正文。',
  continue: '接着用户给出的正文往下续写，保持人物、文风和视角一致，不要重复原文。',
  rewrite: '改写用户给出的文字：意思不变，换一种表达，避免与原文雷同。',
  expand: '扩写用户给出的文字：补充动作、神态、环境与心理描写，情节不变。',
  polish: '润色用户给出的文字：修正错别字和病句，让语句更通顺有文采，意思与情节不变。',
  titles: '根据用户给出的内容拟 10 个小说或推文标题，每行一个，带序号，不要解释。',
};

export function buildMessages(
  request: TextRequest,
): Array<{ role: 'system' | 'user'; content: string }> {
  const task = request.mode ? MODE_TASK[request.mode] : KIND_TASK[request.kind ?? 'promo'];
  const style = [
    request.genre ? `题材：${request.genre}` : '',
    request.tone ? `风格：${request.tone}` : '',
    request.mode === 'titles' ? '' : `字数：约 ${request.length} 字`,
  ]
    .filter(Boolean)
    .join('；');
  const source = condense(
    request.source.map((part) => (part.title ? `【${part.title}】\n${part.text}` : part.text)),
    SOURCE_BUDGET_CHARS,
  );
  return [
    {
      role: 'system',
      content:
        '你是一名资深的中文网络小说编辑和短视频文案写手。只输出文案正文，不要输出任何解释、标题说明或 Markdown 标记。',
    },
    {
      role: 'user',
      content: `${task}\n${style}\n${request.bookTitle ? `书名：《${request.bookTitle}》\n` : ''}\n原文：\n${source}`,
    },
  ];
}
