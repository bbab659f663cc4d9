import type { FastifyInstance } from 'fastify';
import { cutVideoEndpoints } from '@kol/shared-sdk/contracts';
import { badRequest } from '../../../http/api-error';
import { flaggedTermsMessage } from '../../../video/library/vocabulary';
import { CUT_VIDEO_TYPES } from '../../../video/pipelines/merge/pipeline';
import { defineRoute } from '../../define-route';

/**
 * Merges of a work's finished cut video (video/pipelines/merge): each spends a merge count of the
 * work's type; a merge that fails for a reason that is not the user's gives it back (runner).
 */
export default async function videoEditRoutes(app: FastifyInstance) {
  /** The caller's work (404 otherwise), refused while its cut data is not finished or flagged. */
  async function mergeable(userId: number, workId: number): Promise<void> {
    const work = await app.videoTasks.ownWork(userId, workId);
    // A type without cut videos (scroll) has no merge either: startMergeTask says so.
    if (!(CUT_VIDEO_TYPES as readonly number[]).includes(work.type)) return;
    const cut = await app.cutVideos.find(userId, workId);
    if (!cut?.finished)
      throw badRequest('剪辑尚未完成：请先为每个片段生成配音并点击「完成剪辑」，再合成');
    // As gen_video: words a platform may flag are refused before a count is spent.
    const refusal = flaggedTermsMessage(
      cut.segments.map((s) => s.text).join('\n'),
      '片段文案',
      '合成',
    );
    if (refusal) throw badRequest(refusal);
  }

  defineRoute(
    app,
    cutVideoEndpoints.sendMergeRequest,
    async ({ query, request, reply }) => {
      const user = await app.auth.requireUser(request, reply);
      await mergeable(user.id, query.workId);
      return app.videoTasks.startMergeTask(user.id, query.workId);
    },
    { stateChanging: true },
  );

  defineRoute(
    app,
    cutVideoEndpoints.reSendMergeRequest,
    async ({ query, request, reply }) => {
      const user = await app.auth.requireUser(request, reply);
      await mergeable(user.id, query.workId);
      if (!(await app.videoTasks.hasMerged(user.id, query.workId)))
        throw badRequest('该作品还没有合成过，请先点击「合成」');
      return app.videoTasks.startMergeTask(user.id, query.workId);
    },
    { stateChanging: true },
  );
}
