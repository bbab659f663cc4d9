import type { Static, TObject } from 'typebox';
import { Value } from 'typebox/value';
import { StageError } from './errors';
import type { StageContext, StageHandler } from './types';

/**
 * A stage declared with the schema of its output (the routes' one-schema habit): the schema is
 * the stage's type for the stages after it, and the runner checks it twice, when the stage
 * returns and when a resumed task reads the output back from the database. A stored output
 * that no longer fits (written by an older release) then fails the task with a clear message,
 * rather than a TypeError deep in a later stage.
 */
export interface DefinedStage<S extends TObject> extends StageHandler {
  readonly outputSchema: S;
  /**
   * This stage's output, as a later stage of the same task reads it: by reference rather than
   * by a string name, typed by the schema. Throws when the task has no such output (a stage
   * read before it ran: a broken pipeline or a broken stored task).
   */
  output(ctx: Pick<StageContext, 'outputs'>): Static<S>;
}

/** What defineStage takes: a StageHandler whose run answers the schema's type. */
export interface StageDefinition<S extends TObject> {
  /** Stored in the database: never rename a stage of a released pipeline. */
  name: string;
  label?: string;
  weight?: number;
  /** The schema of what run returns (stored as JSON in video_task_stages.outputs). */
  output: S;
  run(ctx: StageContext): Promise<Static<S>>;
}

/** Declares a stage with the schema of its output; see DefinedStage. */
export function defineStage<S extends TObject>(definition: StageDefinition<S>): DefinedStage<S> {
  const { output: schema, run, ...rest } = definition;
  return {
    ...rest,
    outputSchema: schema,
    run,
    output(ctx) {
      const out = ctx.outputs[definition.name];
      if (!out) throw new StageError(`缺少「${definition.name}」阶段的结果，请重新生成`);
      // The runner checked it (on return, or when a resume read it back): it fits the schema.
      return out as Static<S>;
    },
  };
}

/** Where the output that does not fit its schema was first wrong (a JSON pointer), for the log. */
function firstProblem(schema: TObject, value: unknown): string | null {
  if (Value.Check(schema, value)) return null;
  const [error] = Value.Errors(schema, value);
  return error ? `${error.instancePath || '/'} ${error.message}` : '/';
}

/**
 * Checks an output a stage just returned against its schema. Not fitting is a bug of the stage
 * (the user reads the generic internal message; the log has the detail).
 */
export function checkReturnedOutput(stage: StageHandler, value: unknown): void {
  const problem = stage.outputSchema ? firstProblem(stage.outputSchema, value) : null;
  if (problem !== null)
    throw new Error(`stage ${stage.name} returned outputs that do not fit its schema: ${problem}`);
}

/**
 * Checks an output read back from the database for a resumed task. Not fitting means the task
 * was stored by a release whose stage wrote something else: it cannot go on, and the user is
 * asked to generate again (the count is given back: not their fault).
 */
export function checkStoredOutput(stage: StageHandler, value: unknown): void {
  const problem = stage.outputSchema ? firstProblem(stage.outputSchema, value) : null;
  if (problem !== null) {
    throw new StageError('已保存的阶段结果与当前版本不符，无法继续，请重新生成', {
      cause: new Error(`stored outputs of stage ${stage.name} do not fit its schema: ${problem}`),
    });
  }
}
