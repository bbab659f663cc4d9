import { Type } from 'typebox';
import { readCast } from '../text/cast';
import type { Gender } from '../text/gender';
import { askJson, type ChatModel } from '../providers/chat';
import { ProviderError } from '../providers/errors';

export interface ExtractedRole {
  name: string;
  description: string;
  /** From the text (他/她, 少女, 公子…); null when it does not say. */
  gender: Gender | null;
}

export const LOCAL_EXTRACTION_ENGINE = '本地角色提取';

const MAX_ROLES = 12;
/** A model reads this much of a long text: the cast of a story appears early. */
const MODEL_TEXT_CHARS = 12_000;

/**
 * The offline reading (text/cast.ts): people named in full (families, groups, places and bare
 * titles left out), each with the gender and the look the text gives them.
 */
export function extractRolesLocally(text: string, max = MAX_ROLES): ExtractedRole[] {
  return readCast(text, max).people.map((person) => ({
    name: person.name,
    description: person.description,
    gender: person.gender,
  }));
}

const ModelRoles = Type.Object({
  roles: Type.Array(
    Type.Object({
      name: Type.String({ minLength: 1, maxLength: 32 }),
      description: Type.String({ maxLength: 300 }),
      gender: Type.Optional(
        Type.Union([Type.Literal('female'), Type.Literal('male'), Type.Null()]),
      ),
    }),
    { maxItems: 30 },
  ),
});

const SYSTEM = [
  '你是漫画与动画分镜的角色设定助手。',
  '从用户给出的故事中找出有名字的出场人物，为每个人物写一句固定的外貌设定',
  '（性别、大致年龄、发型发色、服饰、体貌特征），这句设定会用在每一张画面里，让人物始终一致。',
  '故事没有写明的外貌，按人物身份合理补全。',
  '只列出人物：家族（某家）、群体（众人、弟子们）、地名、门派和单独的称谓（师父、公子）不是角色；名字写全名（慕容晴，不写慕容或晴儿）。',
  'gender 是人物性别：female 或 male，故事看不出时为 null。',
  '输出格式：{"roles":[{"name":"人物名","description":"外貌设定","gender":"female"}]}',
].join('');

/**
 * Roles of a text: through the chat model when one is configured (JSON checked against a
 * schema, repaired or asked again by askJson), else, or when the model fails, the local
 * heuristic; `engine` says which, and why the model was not used when it failed.
 */
export async function extractRoles(
  text: string,
  model: ChatModel | null,
  signal: AbortSignal,
): Promise<{ roles: ExtractedRole[]; engine: string }> {
  if (model) {
    try {
      const answer = await askJson(
        model,
        {
          system: SYSTEM,
          user: text.slice(0, MODEL_TEXT_CHARS),
          schema: ModelRoles,
          what: '角色列表',
        },
        signal,
      );
      const seen = new Set<string>();
      const roles = answer.roles
        .map((role) => ({
          name: role.name.trim(),
          description: role.description.trim(),
          gender: role.gender ?? null,
        }))
        .filter((role) => role.name && !seen.has(role.name) && seen.add(role.name))
        .slice(0, MAX_ROLES);
      return { roles, engine: model.label };
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      const why = error instanceof ProviderError ? error.message : '文本模型服务出错';
      return {
        roles: extractRolesLocally(text),
        engine: `${LOCAL_EXTRACTION_ENGINE}（${why}）`,
      };
    }
  }
  return { roles: extractRolesLocally(text), engine: LOCAL_EXTRACTION_ENGINE };
}
