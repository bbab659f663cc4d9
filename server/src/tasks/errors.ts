/**
 * A stage failure with the details the user needs: which shot, which provider. `userFault`
 * marks failures caused by what the user gave (a banned word, an unusable upload): those do not
 * give the quota count back, every other failure does.
 */
export class StageError extends Error {
  readonly shot: number | null;
  readonly provider: string | null;
  readonly userFault: boolean;

  constructor(
    message: string,
    options: { shot?: number; provider?: string; userFault?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StageError';
    this.shot = options.shot ?? null;
    this.provider = options.provider ?? null;
    this.userFault = options.userFault ?? false;
  }
}

/** Shorthand for a failure that is the user's (no refund). */
export class UserInputError extends StageError {
  constructor(message: string, options: { shot?: number; provider?: string } = {}) {
    super(message, { ...options, userFault: true });
    this.name = 'UserInputError';
  }
}

/**
 * The message stored on the task and shown to the user: names the stage, and the shot and the
 * provider when the stage said which. Errors that are not StageErrors carry internal English
 * text, so the user reads a generic sentence and the log keeps the detail.
 */
export function stageErrorMessage(label: string, error: unknown): string {
  if (error instanceof StageError) {
    const where = [
      error.shot !== null ? `第 ${error.shot} 个分镜` : null,
      error.provider !== null ? `服务：${error.provider}` : null,
    ].filter(Boolean);
    return `「${label}」阶段失败${where.length > 0 ? `（${where.join('，')}）` : ''}：${error.message}`;
  }
  return `「${label}」阶段失败：系统内部错误，请稍后重试`;
}
