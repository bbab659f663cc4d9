import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { AppConfig, LlmConfig } from '../config';
import { host, openAiErrorMapper, RETRYABLE } from './http';
import { ProviderError } from './errors';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A chat model answering whole messages (no streaming): scripts, shots and roles as JSON. */
export interface ChatModel {
  /** Shown to the user as the engine, e.g. `deepseek-chat（api.deepseek.com）`. */
  label: string;
  chat(messages: ChatMessage[], signal: AbortSignal): Promise<string>;
}

/** The configured OpenAI-compatible chat model (LLM_BASE_URL…), or null offline. */
export function chatModelFrom(config: Pick<AppConfig, 'llm'>): ChatModel | null {
  return config.llm ? createOpenAiChatModel(config.llm) : null;
}

export function createOpenAiChatModel(options: LlmConfig & { retryBaseMs?: number }): ChatModel {
  const label = `${options.model}（${host(options.baseUrl)}）`;
  const mapError = openAiErrorMapper(`文本模型服务 ${label}`, options.timeoutMs);
  const client = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey || 'not-needed',
    maxRetries: 0,
    logLevel: 'off',
    // A whole JSON answer takes longer than a first token: the timeout covers all of it.
    timeout: options.timeoutMs * 6,
  });
  const retryBaseMs = options.retryBaseMs ?? 800;
  return {
    label,
    async chat(messages, signal) {
      for (let attempt = 1; ; attempt++) {
        try {
          const answer = await client.chat.completions.create(
            { model: options.model, messages, temperature: 0.3, max_tokens: 4096 },
            { signal },
          );
          const content = answer.choices?.[0]?.message?.content;
          if (typeof content !== 'string' || content.trim() === '') {
            throw new ProviderError(
              'empty',
              `文本模型服务 ${label} 返回了空内容，请重试或换一个模型`,
            );
          }
          return content;
        } catch (error) {
          if (signal.aborted) throw signal.reason ?? error;
          if (error instanceof ProviderError) throw error;
          const status = error instanceof OpenAI.APIError ? error.status : undefined;
          const retryable =
            error instanceof OpenAI.APIConnectionError ||
            (status !== undefined && RETRYABLE(status));
          if (!retryable || attempt > options.maxRetries) {
            throw mapError(error, error instanceof OpenAI.APIConnectionTimeoutError, attempt);
          }
          const backoff = retryBaseMs * 2 ** (attempt - 1);
          await sleep(backoff / 2 + Math.random() * (backoff / 2), undefined, { signal });
        }
      }
    },
  };
}

/**
 * The JSON inside a model's answer, repaired the ways models break it: a code fence, prose
 * before or after, trailing commas, full-width quotes or colons around keys. Answers undefined
 * when nothing parses.
 */
export function parseModelJson(answer: string): unknown {
  const candidates: string[] = [];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(answer)?.[1];
  for (const text of [answer, fenced]) {
    if (text === undefined) continue;
    candidates.push(text.trim());
    const start = text.search(/[[{]/);
    const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
    if (start >= 0 && end > start) candidates.push(text.slice(start, end + 1));
  }
  const repairs: Array<(text: string) => string> = [
    (text) => text,
    (text) => text.replace(/,\s*([}\]])/g, '$1'),
    (text) =>
      text
        .replace(/[“”„]([^“”„"\n]{1,64}?)[“”„]\s*[:：]/g, '"$1":')
        .replace(/:\s*[“”„]([^“”„"\n]*?)[“”„]\s*([,}\]])/g, ':"$1"$2')
        .replace(/,\s*([}\]])/g, '$1'),
  ];
  for (const candidate of candidates) {
    for (const repair of repairs) {
      try {
        return JSON.parse(repair(candidate)) as unknown;
      } catch {
        // The next repair or candidate.
      }
    }
  }
  return undefined;
}

/** The first few schema errors, in the words a model understands (sent back when it re-asks). */
function schemaProblems(schema: TSchema, value: unknown): string {
  const problems = [...Value.Errors(schema, value)]
    .slice(0, 5)
    .map((error) => `${error.instancePath || '/'} ${error.message}`);
  return problems.join('; ');
}

const MAX_ASKS = 3;

/**
 * Asks the model for JSON matching `schema`: the answer is repaired when it can be, validated,
 * and on failure the model is asked again (twice at most) with what was wrong. Never trusted
 * unvalidated. Throws ProviderError('malformed') naming the model when it cannot be had.
 */
export async function askJson<S extends TSchema>(
  model: ChatModel,
  request: { system: string; user: string; schema: S; what: string },
  signal: AbortSignal,
): Promise<Static<S>> {
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content: `${request.system}\n只输出一个 JSON 值，不要输出解释、不要使用代码块。`,
    },
    { role: 'user', content: request.user },
  ];
  let problem = '';
  for (let ask = 1; ask <= MAX_ASKS; ask++) {
    const answer = await model.chat(messages, signal);
    const parsed = parseModelJson(answer);
    if (parsed !== undefined) {
      // Numbers sent as strings and the like are converted before the check.
      const value = Value.Convert(request.schema, parsed);
      if (Value.Check(request.schema, value)) return value as Static<S>;
      problem = `JSON 不符合要求：${schemaProblems(request.schema, value)}`;
    } else {
      problem = '输出不是合法的 JSON';
    }
    messages.push(
      { role: 'assistant', content: answer.slice(0, 4000) },
      { role: 'user', content: `${problem}。请只输出符合要求的 JSON。` },
    );
  }
  throw new ProviderError(
    'malformed',
    `文本模型服务 ${model.label} 连续 ${MAX_ASKS} 次没有返回有效的${request.what}（${problem}）`,
  );
}
