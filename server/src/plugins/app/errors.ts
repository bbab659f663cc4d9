import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode } from '@kol/shared-sdk/contracts';
import { ApiError } from '../../http/api-error';
import { UserInputError } from '../../tasks/errors';
import { validationMessage } from '../../http/validation-message';

const KNOWN_CODES: ReadonlySet<number> = new Set(Object.values(ErrorCode));
const MULTIPART_ONLY = '不支持的请求内容类型，请以 multipart/form-data 上传';

/** Fastify's own failures before a handler runs, in words a user can read. */
const FASTIFY_ERRORS: Record<string, { code: ErrorCode; msg: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: ErrorCode.badRequest, msg: '请求内容不是有效的 JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: ErrorCode.badRequest, msg: '请求内容不能为空' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: ErrorCode.payloadTooLarge, msg: '请求内容过大' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: ErrorCode.badRequest,
    msg: '不支持的请求内容类型，请使用 JSON',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: ErrorCode.badRequest, msg: '请求长度与内容不符' },
  // @fastify/multipart (uploads)
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    code: ErrorCode.badRequest,
    msg: '请以 multipart/form-data 上传，字段名为 file',
  },
  FST_REQ_FILE_TOO_LARGE: { code: ErrorCode.payloadTooLarge, msg: '上传的文件过大' },
  FST_FILES_LIMIT: { code: ErrorCode.payloadTooLarge, msg: '一次只能上传一个文件' },
  FST_PARTS_LIMIT: { code: ErrorCode.payloadTooLarge, msg: '上传内容的字段过多' },
  FST_FIELDS_LIMIT: { code: ErrorCode.payloadTooLarge, msg: '上传内容的字段过多' },
  FST_PROTO_VIOLATION: { code: ErrorCode.badRequest, msg: '上传内容的字段名不合法' },
  FST_MP_PREMATURE_CLOSE: { code: ErrorCode.badRequest, msg: '上传未完成，连接已断开' },
};

/**
 * What @fastify/busboy (the parser under @fastify/multipart) throws for a body it cannot parse:
 * no boundary, a boundary over its 256-character limit, or a body that ends inside a part. They
 * are plain Errors without a code, known by their messages here, in this one place for every
 * multipart route (uploads, books, releases) wherever the route reads the parts. Any other
 * error of the parser would be a bug of ours and stays a 500.
 */
const MULTIPART_PARSE_FAILURES: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /^Multipart: Boundary not found$/,
    '上传内容格式不正确：multipart/form-data 缺少 boundary，请重新上传',
  ],
  [
    /^The needle cannot have a length bigger than \d+\.?$/,
    '上传内容格式不正确：multipart/form-data 的 boundary 过长，请重新上传',
  ],
  [
    /(^Unexpected end of multipart data$)|(terminated early due to unexpected end of multipart data$)/,
    '上传内容不完整（在某一部分中途结束），请重新上传',
  ],
];

function multipartParseFailure(error: Error): string | undefined {
  return MULTIPART_PARSE_FAILURES.find(([pattern]) => pattern.test(error.message))?.[1];
}

/**
 * A multipart route (its scope registered @fastify/multipart, and it declares no JSON body)
 * sent a body of another type: say what it takes rather than asking for JSON.
 */
function takesMultipart(request: FastifyRequest): boolean {
  const schema = request.routeOptions.schema as Record<string, unknown> | undefined;
  return 'isMultipart' in request && !schema?.body;
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error;
}

function send(reply: FastifyReply, code: number, msg: string) {
  return reply.code(code).send({ code, msg, data: null });
}

/**
 * Every failure leaves as the `{ code, msg, data: null }` envelope with the HTTP status equal
 * to the code: a known failure with its Chinese message, anything else logged with the
 * request id and answered with only that id.
 */
export default fp(
  async (app) => {
    app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      if (error instanceof ApiError) return send(reply, error.code, error.message);
      // A service's refusal of what the user gave (a voice that does not exist, an upload that
      // is not theirs): the same words a task would fail with, answered as a bad request.
      if (error instanceof UserInputError) return send(reply, ErrorCode.badRequest, error.message);
      if (isFastifyError(error)) {
        if (error.validation && error.validation.length > 0) {
          const part = error.validationContext ?? 'body';
          const schema = (request.routeOptions.schema as Record<string, unknown> | undefined)?.[
            part
          ];
          const [first] = error.validation;
          return send(
            reply,
            ErrorCode.badRequest,
            first ? validationMessage(first, schema) : '请求参数不正确',
          );
        }
        if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && takesMultipart(request)) {
          return send(reply, ErrorCode.badRequest, MULTIPART_ONLY);
        }
        const known = error.code ? FASTIFY_ERRORS[error.code] : undefined;
        if (known) return send(reply, known.code, known.msg);
        const multipart = error.code ? undefined : multipartParseFailure(error);
        if (multipart) return send(reply, ErrorCode.badRequest, multipart);
        // Other client errors Fastify raises (e.g. a malformed header) carry a 4xx status.
        const status = error.statusCode ?? 500;
        if (status >= 400 && status < 500) {
          return send(reply, KNOWN_CODES.has(status) ? status : ErrorCode.badRequest, '请求不正确');
        }
      }
      request.log.error({ err: error }, 'unexpected error');
      return send(
        reply,
        ErrorCode.internal,
        `服务器开小差了，请稍后再试（请求编号 ${request.id}）`,
      );
    });

    app.setNotFoundHandler((request, reply) => {
      return send(
        reply,
        ErrorCode.notFound,
        `接口不存在：${request.method} ${request.url.split('?')[0] ?? ''}`,
      );
    });
  },
  { name: 'errors' },
);
