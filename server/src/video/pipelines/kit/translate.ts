import { Type } from 'typebox';
import { splitSentences } from '../../engine/captions';
import { askJson, type ChatModel } from '../../../providers/chat';

const Translation = Type.Object({
  sentences: Type.Array(Type.String({ minLength: 1, maxLength: 600 }), {
    minItems: 1,
    maxItems: 400,
  }),
});

/**
 * A Chinese script in natural spoken English for overseas videos, sentence by sentence (one
 * English sentence per Chinese one, so the shots keep their rhythm), validated like every
 * structured answer.
 */
export async function translateToEnglish(
  model: ChatModel,
  text: string,
  signal: AbortSignal,
): Promise<string> {
  const sentences = splitSentences(text);
  const answer = await askJson(
    model,
    {
      system:
        'Translate each Chinese sentence of a short-video narration into natural spoken English, one English sentence per Chinese sentence, same order. Format: {"sentences":["…"]}',
      user: JSON.stringify({ sentences }),
      schema: Translation,
      what: '英文翻译',
    },
    signal,
  );
  return answer.sentences.map((sentence) => sentence.trim()).join('\n');
}
