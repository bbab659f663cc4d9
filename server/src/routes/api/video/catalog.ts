import type { FastifyInstance } from 'fastify';
import { hasCjk, videoEndpoints, type VideoConfigOption } from '@kol/shared-sdk/contracts';
import { badRequest, upstreamError } from '../../../http/api-error';
import { ProviderError } from '../../../providers/errors';
import { ESPEAK_ENGINE } from '../../../providers/speech/espeak';
import { translateToEnglish } from '../../../video/pipelines/kit/translate';
import { ASSISTANTS } from '../../../video/library/assistants';
import { listMusic } from '../../../video/library/music/catalog';
import { templateList } from '../../../video/library/templates';
import { IMAGE_STYLES } from '../../../video/library/image-styles';
import { defineRoute } from '../../define-route';
import { requestSignal } from '../../../http/request-signal';

/** A translation by a model may take a while; past this the page is better told. */
const TRANSLATE_TIMEOUT_MS = 120_000;

/**
 * The catalogs of the video pages: helpers (0), marketing templates (1) and the composition
 * options (2 image styles, 3 voices, 4 music). In an option, `value` is what the settings store:
 * `imageStyleId` (the style id, as get_loras), `voiceId`, or `musicId`.
 */
export default async function videoCatalogRoutes(app: FastifyInstance) {
  // What the pages must know to say what an action will do: a missing service is named on the
  // page (local pictures, the offline voice, no translation) rather than discovered after it.
  defineRoute(app, videoEndpoints.services, async ({ request, reply }) => {
    await app.auth.requireUser(request, reply);
    const provided = app.providers.speech.voices().find((voice) => voice.engine !== ESPEAK_ENGINE);
    return {
      text: app.providers.chat?.label ?? null,
      pictures: app.providers.images?.label ?? null,
      voice: provided?.engine ?? null,
      clips: app.providers.videos?.label ?? null,
    };
  });

  // The overseas pages' 翻译为英文: the chat model, sentence by sentence (as the overseas comic
  // render translates). Without a model there is no translator, and the refusal says so.
  defineRoute(app, videoEndpoints.translate, async ({ body, request, reply }) => {
    await app.auth.requireUser(request, reply);
    const text = body.text.trim();
    if (!text) throw badRequest('「文案」不能为空');
    if (!hasCjk(text)) return { text, engine: '原文已是英文' };
    const model = app.providers.chat;
    if (!model) {
      throw badRequest('无法翻译为英文：当前未配置文本模型，请粘贴英文文案');
    }
    try {
      const translated = await translateToEnglish(
        model,
        text,
        requestSignal(request, TRANSLATE_TIMEOUT_MS),
      );
      return { text: translated, engine: model.label };
    } catch (error) {
      if (error instanceof ProviderError) throw upstreamError(`翻译失败：${error.message}`);
      throw error;
    }
  });

  defineRoute(app, videoEndpoints.assistantList, async ({ request, reply }) => {
    await app.auth.requireUser(request, reply);
    return ASSISTANTS.map((assistant) => ({ ...assistant }));
  });

  defineRoute(app, videoEndpoints.getTemplates, async ({ request, reply }) => {
    await app.auth.requireUser(request, reply);
    return templateList();
  });

  defineRoute(app, videoEndpoints.videoConfig, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const configType = query.configType;
    const options: VideoConfigOption[] = [];
    if (configType === 2) {
      for (const style of IMAGE_STYLES) {
        options.push({
          id: style.id,
          configType,
          name: style.name,
          value: String(style.id),
          previewUrl: '',
        });
      }
    } else if (configType === 3) {
      // Voice ids are strings: the option id is only the position, `value` is the voiceId.
      app.providers.speech.voices().forEach((voice, i) => {
        options.push({
          id: i + 1,
          configType,
          name: voice.name,
          value: voice.voiceId,
          previewUrl: '',
        });
      });
    } else {
      for (const music of await listMusic(app.uploads, user.id)) {
        options.push({
          id: music.musicId,
          configType,
          name: music.name,
          value: String(music.musicId),
          previewUrl: music.url,
        });
      }
    }
    return options;
  });
}
