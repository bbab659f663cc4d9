import type { TextModel } from '../providers/text';
import { buildMessages } from './prompts';
import type { TextProvider, TextRequest } from './types';

/**
 * Writing with the configured text model: the request becomes writing's prompts (prompts.ts),
 * the model streams the copy. The local engine (local/engine.ts) is the other TextProvider.
 */
export function modelWriter(model: TextModel): TextProvider {
  return {
    name: model.name,
    label: model.label,
    stream: (request: TextRequest, signal: AbortSignal) =>
      model.stream(buildMessages(request), {
        // Room for the asked length in Chinese (about one token per character), and more.
        maxTokens: Math.min(8192, Math.round(request.length * 2) + 200),
        signal,
      }),
  };
}
