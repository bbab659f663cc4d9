import type { FastifyInstance } from 'fastify';
import { editEndpoints } from '@kol/shared-sdk/contracts';
import { listVoices } from '../../../media/speech/espeak';
import { synthesizeTry } from '../../../media/voice-tries';
import { defineRoute } from '../../define-route';

/** The edit calls served so far: the voice list and a voice try (offline espeak-ng voices). */
export default async function editRoutes(app: FastifyInstance) {
  defineRoute(app, editEndpoints.ttsList, async ({ query, request, reply }) => {
    await app.auth.requireUser(request, reply);
    // `zh` matches `zh`; `zh-CN` matches `zh` too (the voices name only the language).
    const language = query.language?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
    return listVoices()
      .filter((voice) => !language || voice.language === language)
      .map((voice) => ({ ...voice, sampleUrl: '' }));
  });

  defineRoute(app, editEndpoints.ttsTry, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return synthesizeTry(app.config.mediaDir, user.id, body);
  });
}
