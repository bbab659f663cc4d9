import fp from 'fastify-plugin';
import { ProjectExports } from './export/service';
import { pipelineOptionsFrom, registerVideoPipelines } from './pipelines';

declare module 'fastify' {
  interface FastifyInstance {
    /** 导出剪映草稿 / 导出工程 of finished videos (video/export). */
    projectExports: ProjectExports;
  }
}

/**
 * The video module in the server: its pipelines registered into the task runner's registry
 * (src/tasks knows no pipeline of its own). Before the runner starts taking jobs (onReady), so a
 * task resumed at start finds its pipeline. And the exports of what the pipelines made.
 */
export default fp(
  async (app) => {
    registerVideoPipelines(
      app.videoPipelines,
      pipelineOptionsFrom(app.config, app.repos, app.providers, app.stores),
    );
    app.decorate('projectExports', new ProjectExports({ repos: app.repos, stores: app.stores }));
  },
  { name: 'video', dependencies: ['video-tasks', 'providers', 'storage'] },
);
