import { copyFile, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { Type, type Static } from 'typebox';
import {
  findMarketTemplate,
  marketNarration,
  spokenCallToAction,
  type VideoSettings,
} from '@kol/shared-sdk/contracts';
import { StageError, UserInputError } from '../../../tasks/errors';
import { defineStage } from '../../../tasks/stage';
import type { StageContext, StageHandler } from '../../../tasks/types';
import { groupShots, shotsOf } from '../kit/storyboard';
import { chooseMusic, ownUploads, uploadedFile } from '../kit/work-inputs';
import { defaultSize } from '../../engine/compose';
import { renderEndCardToFile } from '../../engine/frames/end-card';
import { renderLocalPictureToFile } from '../../engine/looks/render';
import {
  checkAborted,
  exists,
  taskFiles,
  workIdOf,
  type MediaPipelineOptions,
  outputSize,
} from '../kit/pipeline';
import { DEFAULT_VOICE_ID } from '../../../providers/speech/espeak';
import { renderNarratedSegments } from '../kit/render-narrated';
import { AspectSchema, FinishedVideoSchema, PipelineShotSchema } from '../kit/outputs';
import { picturedVoiceStage } from '../kit/voice';

/** A marketing shot: the comics shot plus whether it is the end card. */
const MarketShotSchema = Type.Object({ ...PipelineShotSchema.properties, endCard: Type.Boolean() });
type MarketShot = Static<typeof MarketShotSchema>;

const hasWords = (text: string) => /[\p{L}\p{N}]/u.test(text);

/**
 * The marketing video (type 4): a template's script from what the user filled in (or the
 * work's own text, which wins when there is one), the user's pictures shot by shot (local
 * frames when there are none), and an end card with the product's name and the call to action,
 * held while that call is spoken last.
 */
export function marketPipeline(options: MediaPipelineOptions): StageHandler[] {
  const works = options.repos.works;
  const abs = (relative: string) => path.join(options.mediaDir, relative);
  const taskRel = (ctx: StageContext, ...parts: string[]) => taskFiles(options, ctx).rel(...parts);

  const script = defineStage({
    name: 'script',
    weight: 0.5,
    output: Type.Object({
      templateId: Type.Number(),
      musicId: Type.Number(),
      source: Type.String(),
      sentences: Type.Array(Type.String()),
      callToAction: Type.String(),
      productName: Type.String(),
      imageUrls: Type.Array(Type.String()),
      aspect: AspectSchema,
      voiceId: Type.String(),
      speed: Type.Number(),
    }),
    async run(ctx) {
      const work = await works.find(ctx.task.userId, workIdOf(ctx));
      if (!work) throw new UserInputError('作品不存在或已删除');
      const settings: VideoSettings = work.settings;
      if (settings.templateId === undefined) throw new UserInputError('请先选择「营销模板」');
      const template = findMarketTemplate(settings.templateId);
      if (!template) throw new UserInputError('「营销模板」不存在，请重新选择');
      const fields = settings.templateFields ?? {};
      for (const field of template.fields) {
        if (field.required && !hasWords(fields[field.key] ?? ''))
          throw new UserInputError(
            `请填写「${field.label}」（营销模板「${template.name}」的必填项）`,
          );
      }
      // The SDK's composition, which the page estimates the video's length with: the user's own
      // text over the template's, the call to action said once, last.
      const { source, body, callToAction, productName } = marketNarration({
        template,
        fields,
        text: work.text,
        callToAction: settings.callToAction,
      });
      if (!hasWords(callToAction)) throw new UserInputError('「行动号召」中没有可朗读的文字');
      if (body.length === 0) throw new UserInputError('「文案」中没有可朗读的句子');

      const imageUrls = settings.imageUrls ?? [];
      await ownUploads(
        options,
        ctx.task.userId,
        imageUrls,
        ['image'],
        (i) => `第 ${i + 1} 张「图片」`,
      );
      const musicId = await chooseMusic(options, ctx.task.userId, work.workId, settings.musicId);
      ctx.reportProgress(100);
      // Snapshotted here so a resumed task renders what was asked at start.
      return {
        templateId: template.id,
        musicId,
        source,
        sentences: body,
        callToAction,
        // The end card names what is sold: the template's name field, else the work's title.
        productName: productName || work.title,
        imageUrls,
        aspect: settings.aspect,
        voiceId: settings.voiceId ?? DEFAULT_VOICE_ID,
        speed: settings.speed ?? 1,
      };
    },
  });

  const shots = defineStage({
    name: 'shots',
    weight: 0.5,
    output: Type.Object({ shots: Type.Array(MarketShotSchema) }),
    async run(ctx) {
      const spec = script.output(ctx);
      const sentences = spec.sentences;
      let grouped = groupShots(sentences);
      // Every picture the user gave should be seen: with more pictures than sentence groups,
      // each sentence gets its own shot.
      if (spec.imageUrls.length > grouped.length)
        grouped = sentences.map((s, index) => ({
          index,
          caption: s,
          imagePrompt: s,
          sentences: [s],
        }));
      const body = grouped.map((s) => ({ ...s, endCard: false }));
      const callToAction = spec.callToAction;
      // Spoken with an exclamation so espeak ends it as a sentence, not mid-phrase.
      const spoken = spokenCallToAction(callToAction);
      const end: MarketShot = {
        index: body.length,
        caption: spoken,
        imagePrompt: callToAction,
        sentences: [spoken],
        endCard: true,
      };
      ctx.reportProgress(100);
      return { shots: [...body, end] };
    },
  });

  const images = defineStage({
    name: 'images',
    weight: 1,
    output: Type.Object({
      images: Type.Array(Type.String()),
      /** Per picture: 'upload', 'local-frame' or 'end-card' (quality-report.ts reads them). */
      engines: Type.Array(Type.String()),
    }),
    async run(ctx) {
      const spec = script.output(ctx);
      const size = defaultSize(spec.aspect);
      const imageUrls = spec.imageUrls;
      const list = shotsOf(shots, ctx);
      const files: string[] = [];
      const engines: string[] = [];
      for (const shot of list) {
        checkAborted(ctx.signal);
        const name = `shot-${String(shot.index).padStart(3, '0')}`;
        const url = imageUrls[shot.index % Math.max(1, imageUrls.length)];
        let relative: string;
        if (shot.endCard) {
          relative = taskRel(ctx, 'frames', `${name}-end.jpg`);
          if (!(await exists(abs(relative))))
            await renderEndCardToFile(
              {
                title: spec.productName,
                callToAction: spec.callToAction,
                ...size,
              },
              abs(relative),
            );
          engines.push('end-card');
        } else if (url) {
          // Copied into the task, so a resumed or re-composed task survives a deleted upload.
          relative = taskRel(ctx, 'frames', `${name}${path.extname(url)}`);
          if (!(await exists(abs(relative)))) {
            // Fetched only when the task has no copy yet (a local file of the store's).
            const source = await uploadedFile(options, url);
            if (!source)
              throw new StageError(`第 ${shot.index + 1} 个分镜的图片文件丢失，请重新上传`, {
                shot: shot.index + 1,
              });
            await mkdir(path.dirname(abs(relative)), { recursive: true });
            await copyFile(source, `${abs(relative)}.part`);
            await rename(`${abs(relative)}.part`, abs(relative));
          }
          engines.push('upload');
        } else {
          relative = taskRel(ctx, 'frames', `${name}.jpg`);
          if (!(await exists(abs(relative))))
            await renderLocalPictureToFile(
              {
                scene: shot.imagePrompt,
                caption: shot.caption,
                seriesKey: `work:${workIdOf(ctx)}`,
                shotIndex: shot.index,
                ...size,
              },
              abs(relative),
            );
          engines.push('local-frame');
        }
        files.push(relative);
        ctx.reportProgress(((shot.index + 1) / list.length) * 100);
      }
      return { images: files, engines };
    },
  });

  const voice = picturedVoiceStage(options, { script, shots });

  const compose = defineStage({
    name: 'compose',
    weight: 5,
    output: FinishedVideoSchema,
    async run(ctx) {
      const spec = script.output(ctx);
      const aspect = spec.aspect;
      const frames = images.output(ctx).images;
      const spoken = voice.output(ctx);
      const durations = spoken.shotDurations;
      const size = outputSize(options, aspect);
      return renderNarratedSegments(options, ctx, {
        aspect,
        size,
        segments: frames.map((frame, i) => ({
          media: { kind: 'image' as const, path: abs(frame) },
          durationMs: durations[i] ?? 0,
        })),
        narration: spoken.narration,
        cues: spoken.cues,
        musicId: spec.musicId,
      });
    },
  });

  return [script, shots, images, voice, compose];
}
