import type { FastifyInstance } from 'fastify';
import { videoEndpoints, type VideoConfigOption } from '@kol/shared-sdk/contracts';
import { ASSISTANTS } from '../../../video/library/assistants';
import { listMusic } from '../../../video/library/music/catalog';
import { templateList } from '../../../video/library/templates';
import { IMAGE_STYLES } from '../../../video/library/image-styles';
import { defineRoute } from '../../define-route';

/**
 * The catalogs of the video pages: helpers (0), marketing templates (1) and the composition
 * options (2 image styles, 3 voices, 4 music). In an option, `value` is what the settings store:
 * `imageStyleId` (the style id, as get_loras), `voiceId`, or `musicId`.
 */
export default async function videoCatalogRoutes(app: FastifyInstance) {
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
