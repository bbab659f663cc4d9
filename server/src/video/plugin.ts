import fp from 'fastify-plugin';
import { pipelineOptionsFrom, registerVideoPipelines } from './pipelines';

/**
 * The video module in the server: its pipelines registered into the task runner's registry
 * (src/tasks knows no pipeline of its own). Before the runner starts taking jobs (onReady), so a
 * task resumed at start finds its pipeline.
 */
export default fp(
  async (app) => {
    registerVideoPipelines(
      app.videoPipelines,
      pipelineOptionsFrom(app.config, app.repos, app.providers, app.stores),
    );
  },
  { name: 'video', dependencies: ['video-tasks', 'providers', 'storage'] },
);
